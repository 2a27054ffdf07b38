import type { EmulatorContext } from '../context.js';
import { SingleUseTokens } from '../oauth/csrf.js';
import { SkuType, SubscriptionStatus } from '../premium/Premium.js';
import { priceText } from '../premium/premiumWire.js';
import type { Fields } from './body.js';
import { HtmlError } from './errors.js';
import { escapeHtml, htmlPage } from './html.js';
import { OriginPolicy } from './originPolicy.js';
import { htmlReply, redirectReply, type Reply } from './replies.js';
import type { Route, RouteRequest } from './router.js';

const TITLE = 'Store';
/** What the store forms' tokens are bound to. */
const STORE_PARAMS: ReadonlyMap<string, string> = new Map([['page', 'store']]);
const TYPE_NAMES: Record<number, string> = {
  [SkuType.DURABLE]: 'durable',
  [SkuType.CONSUMABLE]: 'consumable',
  [SkuType.SUBSCRIPTION]: 'subscription',
};
const STATUS_NAMES: Record<number, string> = {
  [SubscriptionStatus.ACTIVE]: 'active',
  [SubscriptionStatus.ENDING]: 'ending',
  [SubscriptionStatus.INACTIVE]: 'inactive',
};

/**
 * The emulator's store page (`/store`): the application's SKUs, where a test user "buys" one (no payment;
 * the purchase makes the entitlement, and for a subscription the subscription, with their events), and each
 * user's subscriptions with a Cancel button. The forms carry a token bound to the page, as the consent page's,
 * good for one submission: each showing of the page issues a new one. Only the emulator's own names and its
 * own pages may use it (see OriginPolicy).
 */
export function storeRoutes(ctx: EmulatorContext): Route[] {
  const { premium, store } = ctx;
  const policy = new OriginPolicy(ctx.urls.http);
  const tokens = new SingleUseTokens(ctx.csrfKey);

  const page = (req: RouteRequest): Reply => {
    policy.guardPage(req.raw, { title: TITLE, page: '/store', changes: false });
    const token = escapeHtml(tokens.issue(STORE_PARAMS, store.now()));
    const users = store.fullUsers().filter((u) => !u.banned);
    const userOptions = users
      .map((u) => `<option value="${escapeHtml(u.id)}">${escapeHtml(u.username)}</option>`)
      .join('');
    const skus = premium.skus();
    const skuRows = skus
      .map(
        (
          s,
        ) => `<li data-sku-id="${escapeHtml(s.id)}"><strong>${escapeHtml(s.name)}</strong> <span class="price">${escapeHtml(priceText(s.price))}</span> <span class="muted">${TYPE_NAMES[s.type] ?? s.type}</span>
<form method="post" action="/store/buy"><input type="hidden" name="csrf_token" value="${token}"><input type="hidden" name="sku_id" value="${escapeHtml(s.id)}">
<select name="user_id" aria-label="buyer">${userOptions}</select> <button type="submit">Buy</button></form></li>`,
      )
      .join('\n');
    const subscriptions = premium
      .subscriptions()
      .map((s) => {
        const user = store.user(s.userId);
        const sku = premium.sku(s.skuIds[0] ?? '');
        const cancel =
          s.status === SubscriptionStatus.ACTIVE
            ? `<form method="post" action="/store/cancel"><input type="hidden" name="csrf_token" value="${token}"><input type="hidden" name="subscription_id" value="${escapeHtml(s.id)}"><button type="submit">Cancel</button></form>`
            : '';
        return `<li data-subscription-id="${escapeHtml(s.id)}">${escapeHtml(user?.username ?? s.userId)}: ${escapeHtml(sku?.name ?? '?')} — <span class="status">${STATUS_NAMES[s.status] ?? s.status}</span>, until ${escapeHtml(new Date(s.currentPeriodEnd).toISOString())} ${cancel}</li>`;
      })
      .join('\n');
    return htmlReply(
      200,
      htmlPage(
        `${store.state.application.name} store`,
        `<h1>${escapeHtml(store.state.application.name)} store</h1>
<p class="sub">local emulator: nothing is charged</p>
<h2>SKUs</h2>
<ul class="skus">${skuRows || '<li class="muted">No SKUs yet (Emulator.createSku).</li>'}</ul>
<h2>Subscriptions</h2>
<ul class="subscriptions">${subscriptions || '<li class="muted">None.</li>'}</ul>`,
      ),
    );
  };

  /** The form the store's own page posted, with a token not used before; others are refused unread. */
  const checkedForm = async (req: RouteRequest): Promise<Fields> => {
    policy.guardPage(req.raw, { title: TITLE, page: '/store', changes: true });
    const fields = await req.form();
    const token = fields.get('csrf_token');
    if (token === undefined || !tokens.redeem(token, STORE_PARAMS, store.now())) {
      throw new HtmlError(400, TITLE, 'The form expired or was already sent. Open the store again.');
    }
    return fields;
  };

  return [
    { method: 'GET', scope: 'root', pattern: '/store', style: 'html', handle: page },
    {
      method: 'POST',
      scope: 'root',
      pattern: '/store/buy',
      style: 'html',
      handle: async (req) => {
        const fields = await checkedForm(req);
        const user = store.user(fields.get('user_id') ?? '');
        if (!user || user.bot || user.banned) throw new HtmlError(400, TITLE, 'Choose a buyer.');
        try {
          premium.purchase(user.id, fields.get('sku_id') ?? '');
        } catch (error) {
          if (error instanceof RangeError) throw new HtmlError(400, TITLE, `Not bought: ${error.message}.`);
          throw error;
        }
        return redirectReply('/store');
      },
    },
    {
      method: 'POST',
      scope: 'root',
      pattern: '/store/cancel',
      style: 'html',
      handle: async (req) => {
        const fields = await checkedForm(req);
        const subscription = premium.subscription(fields.get('subscription_id') ?? '');
        if (!subscription) throw new HtmlError(404, TITLE, 'No such subscription.');
        try {
          premium.cancel(subscription);
        } catch (error) {
          if (error instanceof RangeError) throw new HtmlError(400, TITLE, `Not canceled: ${error.message}.`);
          throw error;
        }
        return redirectReply('/store');
      },
    },
  ];
}
