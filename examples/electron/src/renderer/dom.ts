// Everything the page shows is built with textContent: message text and names come from other players,
// and must never become markup.

/** The element with this id, or an error naming it (the page and this code disagree). */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`#${id} is missing or not a ${type.name}`);
  return element;
}

/** A new element with a class and text. */
export function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  text = '',
  className = '',
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (text) node.textContent = text;
  if (className) node.className = className;
  return node;
}

/** Enables or disables a form's input and buttons together. */
export function setFormEnabled(form: HTMLFormElement, enabled: boolean, placeholder?: string): void {
  for (const control of form.querySelectorAll<HTMLInputElement | HTMLButtonElement>('input, button')) {
    control.disabled = !enabled;
    if (placeholder !== undefined && control instanceof HTMLInputElement) control.placeholder = placeholder;
  }
}
