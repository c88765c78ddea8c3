/**
 * FlowController alone: a bare host (no `<pay-checkout>`), a fake backend client and a fake
 * clock. The state machine follows NextActions to how the flow ended.
 */
import { expect } from '@open-wc/testing';
import { html, render } from 'lit-html';
import type { NextAction } from '../../contract/api-types.js';
import type { Api } from '../../widget/src/api.js';
import type { Env } from '../../widget/src/env.js';
import { FlowController, type FlowPorts } from '../../widget/src/three-ds/flow.js';
import { finalApproved, order } from './support/fake-backend.js';
import { FakeClock } from './support/fake-clock.js';
import { fakeLaunch } from './support/frames.js';

/** The least a host is: the controller renders its dialog into `root`, its shadow root here. */
function bareHost(root: HTMLElement, mode: 'auto' | 'iframe' | 'redirect') {
  let controller: FlowController | undefined;
  const host = {
    addController: (c: FlowController) => {
      controller = c;
    },
    removeController: () => {},
    requestUpdate: () => render(controller!.render(), root),
    challenge: mode,
    renderRoot: root,
    get updateComplete() {
      return Promise.resolve(true);
    },
  };
  return host;
}

function setUp(
  answers: { next?: NextAction[]; cancel?: NextAction } = {},
  mode: 'auto' | 'iframe' | 'redirect' = 'iframe',
) {
  const root = document.createElement('div');
  document.body.append(root);
  const clock = new FakeClock();
  const calls: string[] = [];
  const nexts = [...(answers.next ?? [])];
  const api = {
    origin: location.origin,
    next: async () => {
      calls.push('next');
      const a = nexts.shift();
      return a ?? new Promise<never>(() => {});
    },
    cancel: async (body: unknown) => {
      calls.push(`cancel ${JSON.stringify(body)}`);
      return answers.cancel ?? { action: 'final', order: order() };
    },
    methodResult: async () => finalApproved(),
  } as unknown as Api;
  const emitted: [string, unknown][] = [];
  const navigations: string[] = [];
  const env: Env = {
    fetch: globalThis.fetch,
    setTimeout: clock.setTimeout,
    clearTimeout: clock.clearTimeout,
    now: clock.now,
    navigate: (url) => navigations.push(url),
  };
  const ports: FlowPorts = {
    api: () => api,
    env: () => env,
    emit: (name, detail) => emitted.push([name, detail]),
    step: () => {},
    t: (key) => key,
    time: (ms) => new Date(ms).toISOString(),
    storage: () => undefined,
    restoreFocus: () => {},
  };
  const host = bareHost(root, mode);
  const controller = new FlowController(host as never, ports);
  render(controller.render(), root);
  return { controller, root, clock, calls, emitted, navigations };
}

const challenge = (): NextAction => ({
  action: 'challenge',
  order: order(),
  acsUrl: `${location.origin}/fake-acs/challenge`,
  creq: 'opaque',
  challengeWindowSize: '02',
  launchUrl: fakeLaunch(`${location.origin}/fake-acs/challenge`, { creq: 'opaque' }),
});

describe('FlowController alone', () => {
  it('a final action ends the flow at once', async () => {
    const t = setUp();
    expect(await t.controller.follow(finalApproved())).to.deep.equal({
      kind: 'final',
      order: finalApproved().order,
    });
    expect(t.calls).to.deep.equal([]);
  });

  it('a wait long-polls the backend until the final answer', async () => {
    const t = setUp({ next: [finalApproved()] });
    const end = await t.controller.follow({ action: 'wait', order: order(), retryAfterMs: 1000 });
    expect(end.kind).to.equal('final');
    expect(t.calls).to.deep.equal(['next']);
  });

  it('a challenge opens the launcher in the dialog; the poll answering something else ends it', async () => {
    const t = setUp({ next: [finalApproved()] });
    const end = await t.controller.follow(challenge());
    expect(end.kind).to.equal('final');
    expect(t.emitted.map(([n, d]) => [n, (d as { phase: string }).phase])).to.deep.equal([
      ['pay-challenge', 'open'],
      ['pay-challenge', 'close'],
    ]);
    expect(t.root.querySelector('dialog')!.open).to.equal(false);
    expect(t.controller.dialog.challenge).to.equal(undefined);
    t.controller.hostDisconnected();
  });

  it('Cancel asks first, then reports the backend’s answer to the cancel', async () => {
    const t = setUp();
    const ending = t.controller.follow(challenge());
    await new Promise((r) => setTimeout(r, 0));
    expect(t.root.querySelector('dialog')!.open).to.equal(true);
    expect(t.root.querySelector('iframe')!.getAttribute('src')).to.equal(
      (challenge() as { launchUrl: string }).launchUrl,
    );
    t.controller.dialog.requestCancel();
    expect(t.controller.dialog.challenge?.confirming).to.equal(true);
    expect(t.calls.filter((c) => c.startsWith('cancel'))).to.deep.equal([]);
    t.root.querySelector<HTMLButtonElement>('.stop')!.click();
    const end = await ending;
    expect(end).to.deep.equal({ kind: 'cancelled', order: order() });
    expect(t.calls.filter((c) => c.startsWith('cancel'))).to.deep.equal([
      'cancel {"reason":"challenge-cancelled"}',
    ]);
    t.controller.hostDisconnected();
  });

  describe("the gateway's own 3DS address (`redirect` with a launchUrl)", () => {
    const launchUrl = fakeLaunch(`${location.origin}/fake-gateway/3ds`, {});
    const gatewayRedirect = (): NextAction => ({
      action: 'redirect',
      order: order(),
      url: 'https://gate.example/3ds/1',
      launchUrl,
    });

    for (const mode of ['iframe', 'auto'] as const) {
      it(`${mode}: shown in the dialog through the launcher, never navigated`, async () => {
        const t = setUp({}, mode);
        const ending = t.controller.follow(gatewayRedirect());
        await new Promise((r) => setTimeout(r, 0));
        expect(t.root.querySelector('dialog')!.open).to.equal(true);
        expect(t.root.querySelector('iframe')!.getAttribute('src')).to.equal(launchUrl);
        t.controller.dialog.requestCancel();
        t.root.querySelector<HTMLButtonElement>('.stop')!.click();
        expect((await ending).kind).to.equal('cancelled');
        expect(t.navigations).to.deep.equal([]);
        const [name, detail] = t.emitted[0] ?? [];
        expect(name).to.equal('pay-challenge');
        expect(detail).to.include({ phase: 'open', version: 'redirect' });
        t.controller.hostDisconnected();
      });
    }

    it('redirect mode: the whole page goes to the address', async () => {
      const t = setUp({}, 'redirect');
      expect(await t.controller.follow(gatewayRedirect())).to.deep.equal({ kind: 'left' });
      expect(t.navigations).to.deep.equal(['https://gate.example/3ds/1']);
      expect(t.root.querySelector('iframe')).to.equal(null);
    });

    it('the hosted form is always a whole-page visit', async () => {
      const t = setUp({}, 'iframe');
      expect(await t.controller.follow(gatewayRedirect(), 'hosted')).to.deep.equal({
        kind: 'left',
      });
      expect(t.navigations).to.deep.equal(['https://gate.example/3ds/1']);
      expect(t.emitted).to.deep.equal([
        ['pay-redirect', { url: 'https://gate.example/3ds/1', reason: 'hosted' }],
      ]);
    });
  });

  it('asks for a full window (05) in redirect mode', () => {
    const t = setUp();
    const info = t.controller.browserInfo();
    expect(['01', '02', '03', '05']).to.include(info.challengeWindowSize);
    // The host's mode switched: the controller reads it on each call.
    const host = bareHost(t.root, 'iframe');
    const controller = new FlowController(host as never, {} as FlowPorts);
    expect(controller.browserInfo().challengeWindowSize).to.not.equal('05');
    host.challenge = 'redirect';
    expect(controller.browserInfo().challengeWindowSize).to.equal('05');
    render(html``, t.root);
  });
});
