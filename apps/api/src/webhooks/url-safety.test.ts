import { describe, expect, it } from 'vitest';
import { addressRefusal, parseWebhookUrl, UrlRefused, UrlUnresolved, vetUrl, type Resolver } from './url-safety.js';

const strict = { allowHttpLoopback: false };
const loose = { allowHttpLoopback: true };
const resolvingTo =
  (...addresses: string[]): Resolver =>
  async () =>
    addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));

describe('addressRefusal', () => {
  it.each([
    ['0.0.0.0', /this network/],
    ['10.1.2.3', /private/],
    ['100.64.0.1', /carrier-grade/],
    ['127.0.0.1', /loopback/],
    ['127.255.255.254', /loopback/],
    ['169.254.169.254', /link-local/],
    ['172.16.0.1', /private/],
    ['172.31.255.255', /private/],
    ['192.0.0.8', /reserved/],
    ['192.0.2.1', /documentation/],
    ['192.168.1.1', /private/],
    ['198.18.0.1', /benchmarking/],
    ['198.51.100.7', /documentation/],
    ['203.0.113.9', /documentation/],
    ['224.0.0.251', /multicast/],
    ['239.255.255.250', /multicast/],
    ['240.0.0.1', /reserved/],
    ['255.255.255.255', /reserved/],
    ['::', /unspecified/],
    ['::1', /loopback/],
    ['::ffff:127.0.0.1', /loopback.*IPv4-mapped/],
    ['::ffff:7f00:1', /loopback.*IPv4-mapped/],
    ['::ffff:10.0.0.1', /private.*IPv4-mapped/],
    ['::ffff:169.254.169.254', /link-local.*IPv4-mapped/],
    ['::ffff:0:a9fe:a9fe', /link-local.*IPv4-translated/],
    ['::10.0.0.1', /private.*IPv4-compatible/],
    ['64:ff9b::a00:1', /private.*NAT64/],
    ['64:ff9b::169.254.169.254', /link-local.*NAT64/],
    ['64:ff9b:1::1', /local-use NAT64/],
    ['2002:a00:1::1', /private.*6to4/],
    ['2002:7f00:1::', /loopback.*6to4/],
    ['2001:db8::1', /documentation/],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', /Teredo/],
    ['fc00::1', /unique local/],
    ['fd12:3456::1', /unique local/],
    ['fe80::1', /link-local/],
    ['fe80::1%eth0', /link-local/],
    ['fec0::1', /site-local/],
    ['ff02::1', /multicast/],
    ['100::1', /discard/],
    ['4000::1', /not global unicast/],
  ])('refuses %s', (address, why) => {
    expect(addressRefusal(address, false)).toMatch(why);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '2a00:1450:4001:80b::200e', '::ffff:8.8.8.8', '64:ff9b::808:808'])(
    'allows the public address %s',
    (address) => {
      expect(addressRefusal(address, false)).toBeNull();
    },
  );

  it('allows loopback, and only loopback, with the test setting', () => {
    for (const a of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(addressRefusal(a, true)).toBeNull();
    for (const a of ['10.0.0.1', '169.254.169.254', '192.168.0.1', 'fe80::1', 'fd00::1', '0.0.0.0', '::']) expect(addressRefusal(a, true)).not.toBeNull();
  });
});

describe('parseWebhookUrl', () => {
  it.each([
    ['file:///etc/passwd', /https:\/\//],
    ['ftp://example.com/x', /https:\/\//],
    ['gopher://example.com/', /https:\/\//],
    ['javascript:alert(1)', /https:\/\//],
    ['http://example.com/hook', /must start with https:\/\/ \(not http:\/\/\)/],
    ['https://user:pass@example.com/hook', /credentials/],
    ['https://user@example.com/hook', /credentials/],
    ['not a url', /absolute URL/],
    ['/relative/path', /absolute URL/],
  ])('refuses %s', (raw, why) => {
    expect(() => parseWebhookUrl(raw, strict)).toThrow(why);
  });

  it('takes http: only with the test setting, and never other schemes', () => {
    expect(parseWebhookUrl('http://127.0.0.1:8080/x', loose).href).toBe('http://127.0.0.1:8080/x');
    expect(() => parseWebhookUrl('file:///etc/passwd', loose)).toThrow(UrlRefused);
    expect(() => parseWebhookUrl('http://u:p@127.0.0.1/', loose)).toThrow(/credentials/);
  });
});

describe('vetUrl', () => {
  it('judges IP literals without resolving, in every spelling the URL parser accepts', async () => {
    const resolve: Resolver = async () => {
      throw new Error('must not resolve a literal');
    };
    for (const raw of ['https://10.0.0.1/', 'https://169.254.169.254/latest/meta-data', 'https://[::1]/', 'https://2130706433/', 'https://0x7f.1/', 'https://0177.0.0.1/', 'https://[::ffff:a9fe:a9fe]/', 'https://[fe80::1]/']) {
      await expect(vetUrl(raw, strict, resolve), raw).rejects.toThrow(UrlRefused);
    }
    await expect(vetUrl('https://93.184.216.34/hook', strict, resolve)).resolves.toMatchObject({ address: { address: '93.184.216.34', family: 4 } });
  });

  it('refuses a name when any of its addresses is not public', async () => {
    await expect(vetUrl('https://hook.example/x', strict, resolvingTo('127.0.0.1'))).rejects.toThrow(/resolves to 127\.0\.0\.1, a loopback/);
    await expect(vetUrl('https://hook.example/x', strict, resolvingTo('10.3.2.1'))).rejects.toThrow(/resolves to 10\.3\.2\.1, a private/);
    await expect(vetUrl('https://hook.example/x', strict, resolvingTo('93.184.216.34', '192.168.0.5'))).rejects.toThrow(/192\.168\.0\.5/);
    await expect(vetUrl('https://hook.example/x', loose, resolvingTo('127.0.0.1', '10.0.0.1'))).rejects.toThrow(/10\.0\.0\.1/);
  });

  it('gives the first address of a name whose addresses all pass', async () => {
    const target = await vetUrl('https://hook.example:8443/x?y=1', strict, resolvingTo('2606:4700::1', '93.184.216.34'));
    expect(target.address).toEqual({ address: '2606:4700::1', family: 6 });
    expect(target.url.port).toBe('8443');
  });

  it('reports a name that does not resolve', async () => {
    const fails: Resolver = async () => {
      throw Object.assign(new Error('nope'), { code: 'ENOTFOUND' });
    };
    await expect(vetUrl('https://nowhere.invalid/', strict, fails)).rejects.toThrow(UrlUnresolved);
    await expect(vetUrl('https://nowhere.invalid/', strict, resolvingTo())).rejects.toThrow(/no address/);
  });
});
