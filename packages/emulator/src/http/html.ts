/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;');
}

const STYLE = `
  :root { color-scheme: light dark; --accent: #5865f2; --muted: #6b7280; --card: #ffffff; --bg: #eef0f4; }
  @media (prefers-color-scheme: dark) { :root { --card: #1f2128; --bg: #111214; --muted: #9ca3af; } }
  * { box-sizing: border-box; }
  body { margin: 0; min-height: 100vh; display: grid; place-items: center; background: var(--bg);
         font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
  main { width: min(30rem, calc(100vw - 2rem)); background: var(--card); border-radius: 12px; padding: 1.5rem 1.75rem;
         box-shadow: 0 8px 30px rgb(0 0 0 / 0.12); }
  h1 { font-size: 1.25rem; margin: 0 0 0.25rem; }
  p.sub, .muted { color: var(--muted); }
  ul.scopes { padding-left: 1.1rem; } ul.scopes ul { font-size: 0.9em; color: var(--muted); }
  code { font-size: 0.85em; }
  label { display: block; margin: 1rem 0 0.25rem; font-weight: 600; }
  select, input { width: 100%; padding: 0.5rem; font: inherit; border-radius: 6px; }
  .buttons { display: flex; gap: 0.75rem; justify-content: flex-end; margin-top: 1.5rem; }
  button { font: inherit; padding: 0.55rem 1.2rem; border-radius: 6px; border: 1px solid var(--muted); cursor: pointer;
           background: transparent; color: inherit; }
  button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
  .error { border-left: 4px solid #ed4245; padding-left: 0.75rem; }
  .target { word-break: break-all; }
`;

/** A complete, self-contained page (inline CSS, no scripts, no external assets). `body` must be escaped. */
export function htmlPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>
</head>
<body>
<main>
${body}
</main>
</body>
</html>
`;
}

/** An error page: a title and a sentence, both escaped here. */
export function errorPage(title: string, message: string): string {
  return htmlPage(
    title,
    `<div class="error"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></div>`,
  );
}
