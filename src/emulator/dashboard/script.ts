/**
 * The dashboard's browser script, served at `/dashboard/app.js`: it follows `/dashboard/events` and draws
 * each state into the page with DOM calls and `textContent` only (names and messages are user input), and
 * posts the tester's actions with the page's token.
 */
export const DASHBOARD_SCRIPT = String.raw`'use strict';
(function () {
  var token = document.querySelector('meta[name="dashboard-token"]').getAttribute('content');
  var state = null;
  var drawn = {};
  var LOG_LIMIT = 300;

  function el(tag, props) {
    var node = document.createElement(tag);
    if (props) {
      for (var key in props) {
        if (key === 'text') node.textContent = props.text;
        else if (key === 'cls') node.className = props.cls;
        else node.setAttribute(key, props[key]);
      }
    }
    for (var i = 2; i < arguments.length; i++) {
      var child = arguments[i];
      if (child === null || child === undefined) continue;
      node.appendChild(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
  }

  function userById(id) {
    if (!state) return null;
    for (var i = 0; i < state.users.length; i++) if (state.users[i].id === id) return state.users[i];
    return null;
  }

  function nameOf(id) {
    var user = userById(id);
    return user ? user.username : id;
  }

  function names(ids) {
    return ids.map(nameOf).join(', ');
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function notice(text, isError) {
    var box = document.getElementById('notice');
    box.textContent = text;
    box.className = isError ? 'error' : '';
    box.hidden = false;
  }

  function act(path, body, done) {
    fetch('/dashboard/api/' + path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', 'X-Dashboard-Token': token },
      body: JSON.stringify(body || {}),
    })
      .then(function (res) {
        return res.json().then(function (json) {
          if (!res.ok) notice((json && json.message) || 'HTTP ' + res.status, true);
          else if (done) done(json);
        });
      })
      .catch(function (error) {
        notice('Request failed: ' + error, true);
      });
  }

  function button(label, action, attrs, danger) {
    var props = { type: 'button', 'data-action': action, text: label };
    for (var key in attrs) props[key] = attrs[key];
    if (danger) props.cls = 'danger';
    return el('button', props);
  }

  function activityText(a) {
    var parts = [];
    if (a.name) parts.push(a.name);
    if (a.details) parts.push(a.details);
    if (a.state) parts.push(a.state);
    if (a.party && a.party.size !== null) parts.push('party ' + a.party.size + '/' + a.party.max);
    return parts.join(' · ');
  }

  function relLine(label, ids) {
    return ids.length ? el('div', { cls: 'rel-' + label.replace(/ /g, '-') }, label + ': ' + names(ids)) : null;
  }

  function drawUsers() {
    var body = document.querySelector('#users tbody');
    clear(body);
    state.users.forEach(function (u) {
      var who = el('td', null, el('strong', { text: u.globalName || u.username }), ' ', el('span', { text: '@' + u.username }));
      if (u.provisional) who.appendChild(el('span', { cls: 'tag', text: 'provisional' }));
      if (u.banned) who.appendChild(el('span', { cls: 'tag bad', text: 'banned' }));
      who.appendChild(el('span', { cls: 'id', text: u.id }));
      var status = el('td', null, el('span', { cls: 'status status-' + u.status, 'data-status': u.status },
        el('span', { cls: 'dot' }), u.status));
      var activity = el('td', { cls: 'activity' });
      u.activities.forEach(function (a) { activity.appendChild(el('div', { text: activityText(a) })); });
      var rels = el('td', { cls: 'rels' },
        relLine('friends', u.friends), relLine('incoming', u.incoming), relLine('outgoing', u.outgoing),
        relLine('blocked', u.blocked), relLine('game friends', u.gameFriends),
        relLine('game incoming', u.gameIncoming), relLine('game outgoing', u.gameOutgoing));
      var actions = el('td', null,
        button('Revoke tokens', 'revoke', { 'data-user': u.id }),
        button('Drop gateway', 'drop', { 'data-user': u.id }),
        u.banned ? null : button('Ban', 'ban', { 'data-user': u.id }, true));
      body.appendChild(el('tr', { 'data-user-id': u.id }, who, status, activity, rels,
        el('td', { cls: 'sessions', text: String(u.connectedSessions) }), actions));
    });
  }

  function metadataText(metadata) {
    var keys = Object.keys(metadata);
    return keys.length ? keys.map(function (k) { return k + '=' + metadata[k]; }).join(', ') : '';
  }

  function drawLobbies() {
    var box = document.getElementById('lobbies');
    clear(box);
    if (state.lobbies.length === 0) box.appendChild(el('p', { cls: 'empty', text: 'No lobbies.' }));
    state.lobbies.forEach(function (lobby) {
      var members = el('ul', { cls: 'members' });
      lobby.members.forEach(function (m) {
        members.appendChild(el('li', { 'data-member-id': m.id },
          el('span', { cls: m.connected ? 'dot on' : 'dot', title: m.connected ? 'connected' : 'not connected' }), ' ',
          nameOf(m.id),
          m.additionalName ? el('span', { cls: 'tag', text: 'as ' + m.additionalName }) : null,
          metadataText(m.metadata) ? el('code', { text: ' ' + metadataText(m.metadata) }) : null));
      });
      var messages = el('ol', { cls: 'messages' });
      lobby.messages.forEach(function (msg) {
        messages.appendChild(el('li', { 'data-message-id': msg.id },
          el('span', { cls: 'author', text: msg.additionalName || nameOf(msg.authorId) }),
          el('span', { cls: 'content', text: msg.content })));
      });
      box.appendChild(el('div', { cls: 'card lobby', 'data-lobby-id': lobby.id },
        el('h3', null, 'Lobby ', el('code', { text: lobby.id })),
        el('div', { cls: 'muted', text: 'created by ' + lobby.createdBy +
          (metadataText(lobby.metadata) ? ' · ' + metadataText(lobby.metadata) : '') +
          (lobby.linkedChannelId ? ' · linked to ' + lobby.linkedChannelId : '') }),
        el('div', { text: 'Members' }), members,
        el('div', { text: 'Recent messages' }),
        lobby.messages.length ? messages : el('p', { cls: 'empty', text: 'No messages.' })));
    });
  }

  function drawCalls() {
    var box = document.getElementById('calls');
    clear(box);
    if (state.calls.length === 0) box.appendChild(el('p', { cls: 'empty', text: 'No calls.' }));
    state.calls.forEach(function (call) {
      var dave = el('dl', { cls: 'dave' },
        el('dt', { text: 'DAVE protocol' }),
        el('dd', { cls: 'dave-version', text: call.daveProtocolVersion === null ? '—' : 'v' + call.daveProtocolVersion }),
        el('dt', { text: 'MLS epoch' }),
        el('dd', { cls: 'dave-epoch', text: call.daveEpoch === null ? '—' : call.daveEpoch }),
        el('dt', { text: 'Privacy code' }),
        el('dd', { cls: 'privacy-code', text: call.privacyCode || call.privacyCodeNote }),
        el('dt', { text: 'Packets' }),
        el('dd', { text: call.packetsIn + ' in, ' + call.packetsForwarded + ' forwarded' }));
      var rows = el('tbody');
      call.participants.forEach(function (p) {
        var speaking = p.speaking !== 0;
        rows.appendChild(el('tr', { 'data-participant-id': p.userId },
          el('td', { text: nameOf(p.userId) }),
          el('td', { cls: speaking ? 'speaking speaking-on' : 'speaking' }, el('span', { cls: 'dot' }),
            speaking ? ' speaking' : ' silent'),
          el('td', { cls: 'ssrc', text: p.ssrc === null ? '—' : String(p.ssrc) }),
          el('td', { text: (p.connected ? 'connected' : 'no socket') + (p.selfMute ? ', muted' : '') +
            (p.selfDeaf ? ', deafened' : '') }),
          el('td', { text: p.packetsFromClient + ' / ' + p.packetsToClient }),
          el('td', null, button('Kick', 'kick', { 'data-user': p.userId, 'data-lobby': call.lobbyId }, true))));
      });
      var table = el('table', null, el('thead', null, el('tr', null, el('th', { text: 'Participant' }),
        el('th', { text: 'Speaking' }), el('th', { text: 'SSRC' }), el('th', { text: 'Voice' }),
        el('th', { text: 'Packets in/out' }), el('th'))), rows);
      box.appendChild(el('div', { cls: 'card call', 'data-call-id': call.lobbyId },
        el('h3', null, 'Call in lobby ', el('code', { text: call.lobbyId })), dave, table));
    });
  }

  function drawSessions() {
    var body = document.querySelector('#sessions tbody');
    clear(body);
    state.sessions.forEach(function (s) {
      body.appendChild(el('tr', null, el('td', null, el('code', { text: s.id })), el('td', { text: nameOf(s.userId) }),
        el('td', { text: String(s.seq) }), el('td', { text: s.connected ? 'connected' : 'waiting for resume' })));
    });
  }

  var painters = { users: drawUsers, lobbies: drawLobbies, calls: drawCalls, sessions: drawSessions };

  function draw() {
    // Names come from the users, so a change there redraws everything that shows them.
    var usersChanged = JSON.stringify(state.users) !== drawn.users;
    for (var part in painters) {
      var json = JSON.stringify(state[part]);
      if (usersChanged || json !== drawn[part]) {
        painters[part]();
        drawn[part] = json;
      }
    }
  }

  function pad(n, width) {
    var s = String(n);
    while (s.length < width) s = '0' + s;
    return s;
  }

  // Log lines name users by id (the server's log has no names); the page knows the names.
  function withNames(message) {
    return message.replace(/\b\d{17,20}\b/g, function (id) {
      var user = userById(id);
      return user ? '@' + user.username : id;
    });
  }

  function appendLog(entry) {
    var list = document.getElementById('log');
    var atBottom = list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    var t = new Date(entry.time);
    list.appendChild(el('li', { 'data-area': entry.area },
      el('time', { text: pad(t.getHours(), 2) + ':' + pad(t.getMinutes(), 2) + ':' + pad(t.getSeconds(), 2) + '.' +
        pad(t.getMilliseconds(), 3) }),
      el('span', { cls: 'area', text: '[' + entry.area + ']' }),
      el('span', { cls: 'message', text: withNames(entry.message) })));
    while (list.children.length > LOG_LIMIT) list.removeChild(list.firstChild);
    if (atBottom) list.scrollTop = list.scrollHeight;
  }

  document.addEventListener('click', function (event) {
    var target = event.target.closest('button[data-action]');
    if (!target) return;
    var user = target.getAttribute('data-user');
    var action = target.getAttribute('data-action');
    if (action === 'ban') act('users/' + encodeURIComponent(user) + '/ban', {}, function () { notice(nameOf(user) + ' banned'); });
    else if (action === 'revoke') act('users/' + encodeURIComponent(user) + '/revoke-tokens', {}, function () { notice('Tokens of ' + nameOf(user) + ' revoked'); });
    else if (action === 'drop') act('users/' + encodeURIComponent(user) + '/drop-gateway', {}, function (r) { notice(r.dropped + ' gateway connection(s) of ' + nameOf(user) + ' dropped'); });
    else if (action === 'kick') act('calls/' + encodeURIComponent(target.getAttribute('data-lobby')) + '/kick', { userId: user }, function () { notice(nameOf(user) + ' kicked from the call'); });
  });

  document.getElementById('create-user').addEventListener('submit', function (event) {
    event.preventDefault();
    var form = event.target;
    act('users', { username: form.elements.username.value.trim(), globalName: form.elements.globalName.value.trim() },
      function (user) {
        form.reset();
        notice('Created ' + user.username + ' (' + user.id + ')');
      });
  });

  var live = document.getElementById('live');
  var events = new EventSource('/dashboard/events');
  events.addEventListener('open', function () {
    // The stream starts with the backlog again after a reconnect.
    clear(document.getElementById('log'));
    live.textContent = 'live';
    live.className = 'live on';
  });
  events.addEventListener('error', function () {
    live.textContent = 'reconnecting…';
    live.className = 'live off';
  });
  events.addEventListener('state', function (event) {
    state = JSON.parse(event.data);
    draw();
  });
  events.addEventListener('log', function (event) {
    appendLog(JSON.parse(event.data));
  });
})();
`;
