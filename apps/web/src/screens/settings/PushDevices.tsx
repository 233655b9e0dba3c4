import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import i18n from '../../i18n';
import { describeError, request } from '../../api';
import { AddPushSubscriptionDocument, MyPushSubscriptionsDocument, PushPublicKeyDocument, RemovePushSubscriptionDocument } from '../../gql/graphql';
import { useLoad } from '../../hooks';
import { useToken } from '../../session';
import { ErrorText, LoadState, formatDate } from '../../ui';

/** The id of this browser's device on the server, kept here to mark it "this device" in the list. */
const THIS_DEVICE = 'mizerka.pushDevice';

/** Whether this browser can show the site's notifications (a service worker and Push, in a secure context). */
export function pushSupported(): boolean {
  return window.isSecureContext && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

/**
 * The service worker's "open this table" (when it could not take the tab there itself): only a
 * path of this site.
 */
export function listenToServiceWorker() {
  if (!('serviceWorker' in navigator)) return;
  navigator.serviceWorker.addEventListener('message', (event: MessageEvent<{ type?: string; url?: string }>) => {
    if (event.data?.type !== 'open' || typeof event.data.url !== 'string') return;
    const url = new URL(event.data.url, location.origin);
    if (url.origin === location.origin) location.assign(url.href);
  });
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/'));
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const bytes = new Uint8Array(a);
  return bytes.every((byte, i) => byte === b[i]);
}

/** This browser's push subscription for the server's key: the one it has, or a new one. */
async function subscribeHere(publicKey: string): Promise<PushSubscription> {
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  await navigator.serviceWorker.ready;
  const key = keyBytes(publicKey);
  const existing = await registration.pushManager.getSubscription();
  if (existing && sameKey(existing.options.applicationServerKey, key)) return existing;
  // Made with another server key (the server's keys were replaced): useless now.
  await existing?.unsubscribe();
  return registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key });
}

function describePushError(error: unknown): string {
  if (error instanceof DOMException) {
    if (error.name === 'NotAllowedError') return i18n.t('errors:pushBlocked');
    if (error.name === 'AbortError' || error.name === 'NotSupportedError') return i18n.t('errors:pushUnreachable', { message: error.message });
  }
  return describeError(error);
}

/**
 * Web Push on this device: "Notify me on this device" asks for the notification permission (only
 * then, on that click), subscribes with the server's VAPID key and hands the subscription to the
 * server; the list shows every device the player is notified on, each with "Stop notifying".
 */
export function PushDevicesSection() {
  const { t } = useTranslation('settings');
  const token = useToken();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [permission, setPermission] = useState(() => ('Notification' in window ? Notification.permission : 'denied'));
  const [here, setHere] = useState(() => localStorage.getItem(THIS_DEVICE));
  const devices = useLoad(() => request(MyPushSubscriptionsDocument, {}, token).then((r) => r.myPushSubscriptions), [token]);
  const supported = pushSupported();

  // A device removed elsewhere (or by the server, its push service having forgotten it) is not "this device".
  const thisDevice = devices.data?.some((d) => d.id === here) ? here : null;

  const notifyMe = async () => {
    setBusy(true);
    setError(null);
    try {
      const asked = await Notification.requestPermission();
      setPermission(asked);
      if (asked !== 'granted') throw new DOMException('denied', 'NotAllowedError');
      const { pushPublicKey } = await request(PushPublicKeyDocument, {}, token);
      const subscription = (await subscribeHere(pushPublicKey.publicKey)).toJSON();
      if (!subscription.endpoint || !subscription.keys?.p256dh || !subscription.keys.auth) throw new Error('The browser gave a subscription without its keys');
      const { addPushSubscription } = await request(
        AddPushSubscriptionDocument,
        { endpoint: subscription.endpoint, p256dh: subscription.keys.p256dh, auth: subscription.keys.auth, label: null },
        token,
      );
      localStorage.setItem(THIS_DEVICE, addPushSubscription.id);
      setHere(addPushSubscription.id);
      devices.reload();
    } catch (e) {
      setError(describePushError(e));
    } finally {
      setBusy(false);
    }
  };

  const stop = async (id: string) => {
    setError(null);
    try {
      await request(RemovePushSubscriptionDocument, { id }, token);
      if (id === thisDevice) {
        localStorage.removeItem(THIS_DEVICE);
        setHere(null);
        const registration = await navigator.serviceWorker?.getRegistration('/');
        await (await registration?.pushManager.getSubscription())?.unsubscribe();
      }
    } catch (e) {
      setError(describeError(e));
    }
    devices.reload();
  };

  return (
    <section className="panel" aria-labelledby="push-title">
      <h2 id="push-title">{t('push.title')}</h2>
      <p className="muted">{t('push.intro')}</p>
      <ErrorText error={error} />
      {!supported ? (
        <p className="hint">{window.isSecureContext ? t('push.unsupported') : t('push.unsupportedHttp')}</p>
      ) : (
        <div className="actions">
          <button type="button" disabled={busy || permission === 'denied'} onClick={() => void notifyMe()}>
            {t('push.notifyMe')}
          </button>
          {permission === 'denied' && <span className="hint">{t('push.blocked')}</span>}
        </div>
      )}
      <LoadState error={devices.error} loading={!devices.data} what={t('push.loading')}>
        {devices.data?.length === 0 ? (
          <p className="muted">{t('push.none')}</p>
        ) : (
          <ul className="sessions" aria-label={t('push.list')}>
            {(devices.data ?? []).map((d) => (
              <li key={d.id}>
                <div>
                  <strong>{d.label}</strong>
                  {d.id === thisDevice && <span className="hint"> {t('push.thisDevice')}</span>}
                  <div className="hint">
                    {t('push.added', { date: formatDate(d.createdAt) })}; {d.lastSuccessAt ? t('push.lastNotified', { date: formatDate(d.lastSuccessAt) }) : t('push.notYet')}
                  </div>
                </div>
                <button type="button" className="danger" onClick={() => void stop(d.id)} aria-label={d.id === thisDevice ? t('push.stopLabelHere', { label: d.label }) : t('push.stopLabel', { label: d.label })}>
                  {t('push.stop')}
                </button>
              </li>
            ))}
          </ul>
        )}
      </LoadState>
    </section>
  );
}
