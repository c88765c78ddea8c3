/** Builds the auto-posted forms 3-D Secure needs (Method, CReq, PaReq). */

/** A hidden POST form to `action` aimed at `target` (a frame name or `_top`), not yet submitted. */
export function buildPostForm(
  doc: Document,
  action: string,
  target: string,
  fields: Record<string, string | undefined>,
): HTMLFormElement {
  const form = doc.createElement('form');
  form.method = 'POST';
  form.action = action;
  form.target = target;
  form.hidden = true;
  // Bank pages expect a plain urlencoded post, and the fields are opaque tokens we pass through.
  form.enctype = 'application/x-www-form-urlencoded';
  for (const [name, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const input = doc.createElement('input');
    input.type = 'hidden';
    input.name = name;
    input.value = value;
    form.append(input);
  }
  return form;
}
