/**
 * Clicks and keys for Firefox, sent to the element's own browsing context.
 *
 * puppeteer-core 24.43 sends every `input.performActions` to the tab's top-level context. With
 * site isolation on (a shopper's Firefox: each site its own process), Firefox does not carry
 * those into a frame of another process, so a click or a key meant for the bank's page in the
 * challenge dialog does nothing (puppeteer's own launch avoids this by putting every site in one
 * process, `fission.webContentIsolationStrategy` 0, which is not a shopper's Firefox). WebDriver
 * BiDi lets the command name the frame's context, and Firefox then dispatches there: we send it
 * ourselves over puppeteer's BiDi connection. Those three members (the browser's connection, the
 * frame's context id, the handle's remote value) are puppeteer's internals, not in its types:
 * pinned with puppeteer-core itself (package.json) and read in this one file.
 */
import type { ElementHandle, Frame } from 'puppeteer-core';

interface BidiInternals {
  connection: { send(method: string, params: unknown): Promise<unknown> };
}

function internals(frame: Frame, handle: ElementHandle) {
  const connection = (frame.page().browser() as unknown as Partial<BidiInternals>).connection;
  const context = (frame as unknown as { _id?: string })._id;
  const sharedId = (
    handle as unknown as { remoteValue?: () => { sharedId?: string } }
  ).remoteValue?.().sharedId;
  if (!connection || !context || !sharedId) {
    throw new Error('puppeteer-core’s BiDi internals changed: see drivers/bidi-input.ts');
  }
  return { connection, context, sharedId };
}

/** A mouse click at the element's centre, dispatched in the element's frame. */
export async function bidiClick(frame: Frame, handle: ElementHandle): Promise<void> {
  const { connection, context, sharedId } = internals(frame, handle);
  await handle.scrollIntoView();
  await connection.send('input.performActions', {
    context,
    actions: [
      {
        type: 'pointer',
        id: 'pay-checkout-mouse',
        parameters: { pointerType: 'mouse' },
        actions: [
          { type: 'pointerMove', x: 0, y: 0, origin: { type: 'element', element: { sharedId } } },
          { type: 'pointerDown', button: 0 },
          { type: 'pointerUp', button: 0 },
        ],
      },
    ],
  });
}

/** Keys, one down and up per character, to whatever has focus in the element's frame. */
export async function bidiType(frame: Frame, handle: ElementHandle, text: string): Promise<void> {
  const { connection, context } = internals(frame, handle);
  await connection.send('input.performActions', {
    context,
    actions: [
      {
        type: 'key',
        id: 'pay-checkout-keyboard',
        actions: [...text].flatMap((value) => [
          { type: 'keyDown', value },
          { type: 'keyUp', value },
        ]),
      },
    ],
  });
}
