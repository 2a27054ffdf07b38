// Catch the Star, the page: it runs inside the client's frame and talks to it through the Embedded App SDK,
// and to its own server (through the Activity proxy, so plain relative URLs) for the token and the game.
import { DiscordSDK, PriceUtils, patchUrlMappings } from './sdk/index.mjs';

const $ = (id) => document.getElementById(id);
const status = (text) => {
  $('status').textContent = text;
};

const SCOPES = ['identify', 'rpc.activities.write'];
const STARS_TO_WIN = 5;
const CELLS = 36;

const { clientId, tipsHost } = await (await fetch('/api/config')).json();
// The frame may reach its own proxy origin only: requests to the tips service go through the /tips URL
// mapping. patchUrlMappings rewrites fetch, WebSocket and XHR URLs to it (unprefixed, the 2.2 default).
patchUrlMappings([{ prefix: '/tips', target: tipsHost }]);
fetch(`http://${tipsHost}/tip`)
  .then((answer) => answer.json())
  .then(({ tip }) => {
    $('tip').textContent = tip;
  })
  .catch((error) => console.warn(`no tip: ${error.message}`));
const sdk = new DiscordSDK(clientId);
await sdk.ready();
$('instance').textContent = sdk.instanceId;

// The client asks the player; the code goes to our server, which exchanges it with the client secret.
status('Waiting for you to authorize…');
const { code } = await sdk.commands.authorize({
  client_id: clientId,
  response_type: 'code',
  state: '',
  prompt: 'none',
  scope: SCOPES,
});
const tokenAnswer = await fetch('/api/token', {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ code }),
});
const { access_token: accessToken } = await tokenAnswer.json();
const { user } = await sdk.commands.authenticate({ access_token: accessToken });
const me = user.global_name ?? user.username;
console.log(`signed in as ${user.username}`);

const showParticipants = (participants) => {
  $('participants').replaceChildren(
    ...participants.map((p) => {
      const item = document.createElement('li');
      item.textContent = p.global_name ?? p.username;
      item.dataset.id = p.id;
      return item;
    }),
  );
};
showParticipants((await sdk.commands.getInstanceConnectedParticipants()).participants);
await sdk.subscribe('ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE', ({ participants }) => {
  showParticipants(participants);
});

// The client's layout of the Activity (focused, picture in picture, grid): the page says which it is in.
const LAYOUTS = ['focused', 'picture in picture', 'grid'];
await sdk.subscribe('ACTIVITY_LAYOUT_MODE_UPDATE', ({ layout_mode: mode }) => {
  $('layout').textContent = `Layout: ${LAYOUTS[mode] ?? 'unknown'}`;
});

// The shop: a durable SKU (made in the developer portal) that gilds the board. The client shows its purchase
// modal; ENTITLEMENT_CREATE also arrives when it is bought elsewhere (the store page, another window).
const { skus } = await sdk.commands.getSkus();
const golden = skus.find((s) => s.name === 'Golden Board');
const gild = () => {
  document.body.classList.add('golden');
  $('shop').textContent = 'You own the Golden Board.';
};
const showShop = async () => {
  if (!golden) {
    $('shop').textContent = 'Nothing for sale.';
    return;
  }
  const { entitlements } = await sdk.commands.getEntitlements();
  if (entitlements.some((e) => e.sku_id === golden.id)) {
    gild();
    return;
  }
  const buy = document.createElement('button');
  buy.type = 'button';
  buy.id = 'buy';
  buy.textContent = `Buy the Golden Board (${PriceUtils.formatPrice(golden.price)})`;
  buy.addEventListener('click', () => {
    sdk.commands
      .startPurchase({ sku_id: golden.id })
      .then((bought) => {
        if (bought?.some((e) => e.sku_id === golden.id)) gild();
      })
      .catch((error) => console.warn(`startPurchase failed: ${error.message}`));
  });
  $('shop').replaceChildren(buy);
};
await showShop();
await sdk.subscribe('ENTITLEMENT_CREATE', ({ entitlement }) => {
  if (entitlement.sku_id === golden?.id) gild();
});

// Rich presence: what friends see of this game, with the 2.1 link fields.
let shownScore = -1;
const showPresence = (state) => {
  const mine = state.players.find((p) => p.id === user.id)?.score ?? 0;
  if (mine === shownScore) return;
  shownScore = mine;
  sdk.commands
    .setActivity({
      activity: {
        type: 0,
        details: 'Catching stars',
        details_url: `${location.origin}/`,
        state: `${mine} of ${STARS_TO_WIN} stars`,
        party: { id: sdk.instanceId, size: [state.players.length, 8] },
        assets: { large_image: 'star', large_text: 'Catch the Star', large_url: `${location.origin}/` },
      },
    })
    .catch((error) => console.warn(`setActivity failed: ${error.message}`));
};

const cells = Array.from({ length: CELLS }, (_, i) => {
  const cell = document.createElement('button');
  cell.type = 'button';
  cell.dataset.cell = String(i);
  return cell;
});
$('board').replaceChildren(...cells);

const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
const socket = new WebSocket(
  `${scheme}://${location.host}/api/play?instance_id=${encodeURIComponent(sdk.instanceId)}`,
);
let round = 0;
socket.addEventListener('open', () => {
  socket.send(JSON.stringify({ token: accessToken }));
});
socket.addEventListener('close', (event) => {
  status(`Disconnected from the game server (${event.code})`);
});
socket.addEventListener('message', (event) => {
  const state = JSON.parse(event.data);
  if (state.t !== 'state') return;
  round = state.round;
  cells.forEach((cell, i) => {
    const star = i === state.star;
    cell.classList.toggle('star', star);
    cell.textContent = star ? '★' : '';
  });
  $('scores').replaceChildren(
    ...[...state.players]
      .sort((a, b) => b.score - a.score)
      .map((p) => {
        const item = document.createElement('li');
        item.textContent = `${p.name}: ${p.score}`;
        return item;
      }),
  );
  if (state.winner) {
    status(`${state.winner} wins the round!`);
    $('status').className = 'winner';
  } else {
    status(`Playing as ${me}: catch ${STARS_TO_WIN} stars first`);
    $('status').className = '';
  }
  showPresence(state);
});
$('board').addEventListener('click', (event) => {
  const cell = event.target.closest('button');
  if (cell?.classList.contains('star')) socket.send(JSON.stringify({ catch: round }));
});
