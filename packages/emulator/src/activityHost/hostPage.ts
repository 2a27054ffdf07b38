/** The path prefix the Activity host owns on the proxy host (no URL mapping may take it). */
export const HOST_PREFIX = '/.emulator/activity';

/**
 * The host page's policy: its own script and style only, the WebSocket and the frame of its own origin. The
 * frame's document has the game's own headers.
 */
export const HOST_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; frame-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'";

/** The host page: a bar (application, player, instance, participants), the frame's slot and the OAuth2 modal. */
export function hostPageHtml(): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="origin">
<title>Activity</title>
<link rel="stylesheet" href="${HOST_PREFIX}/host.css">
<script src="${HOST_PREFIX}/host.js" defer></script>
</head>
<body>
<header>
  <strong id="application">Activity</strong>
  <span id="player"></span>
  <span id="instance"></span>
  <span id="state">connecting</span>
</header>
<div id="stage">
  <div id="slot"></div>
  <aside><h2>In this Activity</h2><ul id="participants"></ul>
  <h2>Blocked requests</h2><ul id="blocked"></ul></aside>
</div>
<dialog id="consent">
  <form method="dialog">
    <h1 id="consent-title"></h1>
    <p id="consent-lead"></p>
    <ul id="consent-scopes"></ul>
    <div class="buttons">
      <button id="cancel" value="cancel">Cancel</button>
      <button id="copy" value="copy" hidden>Copy link</button>
      <button id="authorize" value="authorize" class="primary">Authorize</button>
    </div>
  </form>
</dialog>
<dialog id="notice">
  <form method="dialog">
    <h1 id="notice-title"></h1>
    <p id="notice-url"></p>
    <div class="buttons"><button id="notice-close" value="close" class="primary">Close</button></div>
  </form>
</dialog>
<dialog id="upload">
  <form method="dialog">
    <h1>Upload an image</h1>
    <p><input type="file" id="upload-file" accept="image/*"></p>
    <div class="buttons"><button id="upload-cancel" value="cancel">Cancel</button></div>
  </form>
</dialog>
</body>
</html>
`;
}

/** The host page's style. */
export const HOST_CSS = `
:root { color-scheme: dark; --accent: #5865f2; --muted: #9ca3af; --bg: #1e1f22; --card: #2b2d31; }
* { box-sizing: border-box; }
html, body { height: 100%; margin: 0; }
body { display: flex; flex-direction: column; background: var(--bg); color: #f2f3f5;
       font: 14px/1.4 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif; }
header { display: flex; gap: 1rem; align-items: baseline; padding: 0.5rem 1rem; background: var(--card); }
header span { color: var(--muted); }
#state { margin-left: auto; }
#stage { flex: 1; display: flex; min-height: 0; }
#slot { flex: 1; display: flex; }
#slot iframe { flex: 1; border: 0; background: #000; }
aside { width: 14rem; padding: 0 1rem; background: var(--card); }
aside h2 { font-size: 0.8rem; text-transform: uppercase; color: var(--muted); }
aside ul { list-style: none; padding: 0; }
#blocked li { color: #f0b232; font-size: 0.8rem; overflow-wrap: anywhere; }
dialog { border: 0; border-radius: 10px; background: var(--card); color: inherit; width: min(28rem, 90vw); }
dialog h1 { font-size: 1.1rem; }
.buttons { display: flex; gap: 0.75rem; justify-content: flex-end; }
button { font: inherit; padding: 0.45rem 1.1rem; border-radius: 5px; border: 1px solid var(--muted);
         background: transparent; color: inherit; cursor: pointer; }
button.primary { background: var(--accent); border-color: var(--accent); color: #fff; }
`;

/**
 * The host page's script. It opens the WebSocket named by the page's ticket and relays between it and the
 * game's frame: what the frame posts (only from that frame, only from this origin) goes up as it is; what
 * comes down is posted into the frame. It also draws the bar, the participants and the OAuth2 modal.
 */
export const HOST_JS = `'use strict';
(() => {
  const ticket = new URLSearchParams(location.search).get('ticket') || '';
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(scheme + '://' + location.host + '${HOST_PREFIX}/socket?ticket=' + encodeURIComponent(ticket));
  const $ = (id) => document.getElementById(id);
  const state = (text) => { $('state').textContent = text; };
  let frame = null;
  const consents = [];
  const send = (message) => { if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message)); };

  window.addEventListener('message', (event) => {
    if (!frame || event.source !== frame.contentWindow || event.origin !== location.origin) return;
    send({ t: 'frame', d: event.data });
  });

  const askNext = () => {
    const dialog = $('consent');
    if (dialog.open || consents.length === 0) return;
    const ask = consents[0];
    const purchase = ask.kind === 'purchase';
    const share = ask.kind === 'share';
    $('consent-title').textContent = share
      ? 'Share ' + ask.application
      : purchase
        ? 'Buy ' + ask.sku.name + '?'
        : ask.application + ' wants to access your account';
    $('consent-lead').textContent = share
      ? ask.message
      : purchase
        ? ask.sku.price + ' · from ' + ask.application + ' (the emulator takes no payment)'
        : 'This will allow the Activity to:';
    $('authorize').textContent = share
      ? (ask.channel ? 'Send in #' + ask.channel.name : 'Send')
      : purchase ? 'Buy' : 'Authorize';
    $('authorize').hidden = share && !ask.channel;
    $('copy').hidden = !share;
    const list = $('consent-scopes');
    const lines = share ? [{ description: ask.url, scope: 'link' }] : purchase ? [] : ask.scopes;
    list.replaceChildren(...lines.map((s) => {
      const item = document.createElement('li');
      item.textContent = s.description;
      item.title = s.scope;
      return item;
    }));
    dialog.showModal();
  };
  $('consent').addEventListener('close', () => {
    const ask = consents.shift();
    const value = $('consent').returnValue;
    if (ask && ask.kind === 'share') {
      if (value === 'copy' && navigator.clipboard) navigator.clipboard.writeText(ask.url).catch(() => {});
      send({ t: 'consent', id: ask.id, approve: value === 'authorize' || value === 'copy', choice: value === 'copy' ? 'copy' : 'send' });
    } else if (ask) send({ t: 'consent', id: ask.id, approve: value === 'authorize' });
    askNext();
  });

  socket.addEventListener('open', () => state('launching'));
  socket.addEventListener('close', () => {
    state('disconnected');
    if (frame) { frame.remove(); frame = null; }
  });
  socket.addEventListener('message', (event) => {
    let message;
    try { message = JSON.parse(event.data); } catch { return; }
    switch (message.t) {
      case 'open':
        document.title = message.application + ' · Activity';
        $('application').textContent = message.application;
        $('player').textContent = 'playing as ' + message.user;
        $('instance').textContent = message.instanceId;
        frame = document.createElement('iframe');
        frame.referrerPolicy = 'origin';
        frame.allow = 'autoplay; clipboard-write; fullscreen';
        frame.src = message.src;
        $('slot').replaceChildren(frame);
        state('running');
        break;
      case 'frame':
        if (frame && frame.contentWindow) frame.contentWindow.postMessage(message.d, location.origin);
        break;
      case 'participants':
        $('participants').replaceChildren(...message.names.map((name) => {
          const item = document.createElement('li');
          item.textContent = name;
          return item;
        }));
        break;
      case 'consent':
        consents.push(message);
        askNext();
        break;
      case 'blocked': {
        // What production's Content Security Policy would block too, and the mapping that would allow it.
        console.warn('Activity: blocked ' + message.directive + ' ' + message.url + ': ' + message.hint);
        const item = document.createElement('li');
        item.textContent = message.url;
        item.title = message.hint;
        const list = $('blocked');
        list.append(item);
        if (list.children.length > 20) list.firstElementChild.remove();
        break;
      }
      case 'dialog':
        // The client's invite and share moment dialogs: what they would share.
        $('notice-title').textContent = message.kind === 'invite' ? 'Invite friends to the Activity' : 'Share this moment';
        $('notice-url').textContent = message.url;
        if (!$('notice').open) $('notice').showModal();
        break;
      case 'upload': {
        // The file picker of INITIATE_IMAGE_UPLOAD: the picked image goes up over HTTP (it may be megabytes).
        const dialog = $('upload');
        const input = $('upload-file');
        input.value = '';
        let done = false;
        input.onchange = () => {
          const file = input.files && input.files[0];
          if (!file || done) return;
          done = true;
          dialog.close('sent');
          fetch('${HOST_PREFIX}/upload?id=' + encodeURIComponent(message.id), {
            method: 'POST',
            headers: { 'content-type': file.type || 'application/octet-stream', 'x-filename': encodeURIComponent(file.name) },
            body: file,
          }).then((answer) => {
            if (!answer.ok) send({ t: 'consent', id: message.id, approve: false });
          }, () => send({ t: 'consent', id: message.id, approve: false }));
        };
        dialog.onclose = () => {
          if (!done) { done = true; send({ t: 'consent', id: message.id, approve: false }); }
        };
        dialog.showModal();
        break;
      }
      case 'link':
        window.open(message.url, '_blank', 'noopener');
        break;
      case 'closed':
        state('closed: ' + message.message);
        if (frame) { frame.remove(); frame = null; }
        break;
    }
  });
})();
`;
