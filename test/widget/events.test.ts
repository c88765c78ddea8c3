/**
 * PAY_EVENTS is the one list of the element's event names (the tests' listeners use it). The demo
 * is plain JavaScript and keeps a copy of its own: this checks the copy names every event.
 */
import { expect } from '@open-wc/testing';
import { PAY_EVENTS } from '../../widget/src/events.js';

describe('PAY_EVENTS', () => {
  it('is the list the demo page listens with', async () => {
    // As the test server hands it out: compiled by esbuild, which writes its quotes as `"`.
    const app = await (await fetch('/demo/public/app.js')).text();
    const copy = /\bEVENTS = \[([^\]]*)\]/.exec(app)?.[1] ?? '';
    expect([...copy.matchAll(/['"]([\w-]+)['"]/g)].map((m) => m[1])).to.deep.equal([...PAY_EVENTS]);
  });
});
