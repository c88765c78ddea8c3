/**
 * Focus moved by the element (a refused field, the result's heading, a warning, the dialog's
 * buttons): once the host has rendered what is to take it. One helper for every such move, since
 * each waited for the render and searched the shadow root in its own words.
 */
import type { ReactiveControllerHost } from './element-base.js';

/** The element as the helper reads it: its update cycle and its shadow root. */
export type FocusHost = ReactiveControllerHost & { readonly renderRoot: ParentNode };

/** After the host's pending render, focus the first element in its shadow root that `selector` matches. */
export const focusAfterUpdate = (host: FocusHost, selector: string): Promise<void> =>
  host.updateComplete.then(() => host.renderRoot.querySelector<HTMLElement>(selector)?.focus());
