// docker-compose.yml, deploy/nginx.conf and the Dockerfile held against the code, without Docker:
// each check fails when one side changes and the other does not, and says what drifted. The
// routes are asked of the real application (startTestApp), not of a list kept here.
import { existsSync, readFileSync } from 'node:fs';
import { posix } from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { PATH_METADATA } from '@nestjs/common/constants.js';
import { ModulesContainer } from '@nestjs/core';
import { DECORATORS } from '@nestjs/swagger';
import WebSocket from 'ws';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REST_PREFIX } from '../../apps/api/src/app.js';
import { loadConfig, type AppConfig } from '../../apps/api/src/config/app-config.js';
import { migrationsDir, projectRoot } from '../../apps/api/src/database/migrations.js';
import { startTestApp, type TestApp } from '../app.js';
import {
  dependenciesOf,
  dockerEnv,
  dockerStages,
  effective,
  environmentOf,
  healthCommand,
  interpolate,
  locationFor,
  nginxMs,
  parseCompose,
  parseNginx,
  publishedContainerPorts,
  referencedVariables,
  serversOf,
  urlsIn,
  type ComposeService,
  type NginxLocation,
} from './deploy-files.js';

const root = projectRoot();
const read = (path: string) => readFileSync(posix.join(root, path), 'utf8');

/** What an operator's .env would hold; the values only have to be valid. */
const OPERATOR_ENV = { POSTGRES_PASSWORD: 'test-password-0123456789' };

const composeText = read('docker-compose.yml');
const rawCompose = parseCompose(composeText);
const compose = interpolate(rawCompose, OPERATOR_ENV);
const services = compose.services;

/** The service built from this repository: the server. */
const apiName = Object.keys(services).find((name) => services[name].build !== undefined);
const api = services[apiName ?? ''] as ComposeService;
/** The service that mounts the nginx configuration. */
const proxyEntry = Object.entries(services).find(([, s]) => (s.image ?? '').startsWith('nginx'));
const [proxyName, proxy] = proxyEntry ?? ['', {} as ComposeService];
const nginxMount = (proxy.volumes ?? []).map((v) => (typeof v === 'string' ? v : `${v.source}:${v.target}${v.read_only ? ':ro' : ''}`))[0] ?? '';
const nginxPath = posix.normalize(nginxMount.split(':')[0] ?? '');

const dockerfile = dockerStages(read(typeof api.build === 'object' && api.build.dockerfile ? api.build.dockerfile : 'Dockerfile'));
const runtimeStage = dockerfile[dockerfile.length - 1] ?? [];
const packageJson = JSON.parse(read('package.json')) as { scripts: Record<string, string>; engines: { node: string } };

/** The api container's environment: the image's ENV, then compose's over it. */
const apiEnv = { ...dockerEnv(runtimeStage), ...environmentOf(api) };

/** loadConfig on that environment, and every variable it looked at. */
function configOf(env: Record<string, string>): { config: AppConfig; read: Set<string> } {
  const names = new Set<string>();
  const watched = new Proxy(env, {
    get: (target, key) => {
      if (typeof key === 'string') names.add(key);
      return Reflect.get(target, key);
    },
  });
  return { config: loadConfig(watched), read: names };
}

describe('docker-compose.yml', () => {
  it('has the services the deployment is made of', () => {
    expect(apiName, 'a service built from this repository (build: .)').toBeDefined();
    expect(proxyName, 'an nginx service in front of the api').not.toBe('');
    expect(api.build === '.' || (typeof api.build === 'object' && (api.build.context ?? '.') === '.'), 'the api is built from the repository root').toBe(true);
  });

  it('needs POSTGRES_PASSWORD from the environment, and names it when it is missing', () => {
    expect(() => interpolate(rawCompose, {})).toThrow(/POSTGRES_PASSWORD/);
  });

  it('names only services of the file in depends_on', () => {
    for (const [name, service] of Object.entries(services)) {
      for (const dependency of dependenciesOf(service)) {
        expect(Object.keys(services), `${name} depends_on "${dependency}", which is not a service of docker-compose.yml`).toContain(dependency);
      }
    }
  });

  it('gives every service a health check, and waits for its dependencies to be healthy', () => {
    for (const [name, service] of Object.entries(services)) {
      expect(healthCommand(service), `service ${name} has no health check`).not.toBe('');
      const deps = service.depends_on;
      if (deps && !Array.isArray(deps)) {
        for (const [dependency, { condition }] of Object.entries(deps)) {
          expect(condition, `${name} should wait for ${dependency} to be healthy`).toBe('service_healthy');
        }
      }
    }
  });

  it('writes no secret: passwords, tokens and URL credentials come from ${…} interpolation', () => {
    const wholeInterpolation = /^\$\{[A-Za-z_][A-Za-z0-9_]*(:?[-?][^}]*)?\}$/;
    for (const [name, service] of Object.entries(rawCompose.services)) {
      for (const [key, value] of Object.entries(environmentOf(service))) {
        if (/PASS|SECRET|TOKEN|KEY|CREDENTIAL/i.test(key) && value !== '') {
          expect(value, `${name}.environment.${key} is a literal secret; take it from the environment: \${${key}:?…}`).toMatch(wholeInterpolation);
        }
      }
    }
    for (const [, password] of composeText.matchAll(/[a-z][a-z0-9+.-]*:\/\/[^\s:/@]+:([^\s@]+)@/gi)) {
      expect(password, `a URL in docker-compose.yml carries the literal password "${password}"`).toMatch(wholeInterpolation);
    }
  });

  it('runs the api as several replicas reachable only through the proxy', () => {
    expect(api.deploy?.replicas ?? 1, `${apiName}: deploy.replicas`).toBeGreaterThanOrEqual(2);
    expect(api.ports ?? [], `${apiName} publishes a port: clients would bypass the proxy and could forge X-Forwarded-For`).toEqual([]);
    expect(api.container_name, `${apiName}: a container_name allows one replica only`).toBeUndefined();
    expect(dependenciesOf(proxy), `${proxyName} should start after ${apiName}`).toContain(apiName);
  });

  it('sets only variables loadConfig reads, with values it accepts', () => {
    const { config, read: names } = configOf(apiEnv);
    const ignored = Object.keys(apiEnv).filter((key) => !names.has(key));
    expect(ignored, 'the api container sets variables the server never reads (apps/api/src/config/app-config.ts)').toEqual([]);
    expect(config.nodeEnv).toBe('production');
    expect(config.host, 'HOST: in a container the server must listen on every interface').toBe('0.0.0.0');
  });

  it('points DATABASE_URL and REDIS_URL at the services of the file, with the database service’s credentials', () => {
    const { config } = configOf(apiEnv);
    expect(config.databaseUrl, 'DATABASE_URL: unset would start the embedded PostgreSQL in every replica').not.toBeNull();
    expect(config.redisUrl, 'REDIS_URL: replicas share rate limits and notices through Redis').not.toBeNull();
    const database = new URL(config.databaseUrl!);
    const postgres = services[database.hostname];
    expect(postgres, `DATABASE_URL's host "${database.hostname}" is not a service`).toBeDefined();
    const pgEnv = environmentOf(postgres);
    expect(decodeURIComponent(database.username), 'DATABASE_URL user vs POSTGRES_USER').toBe(pgEnv.POSTGRES_USER);
    expect(decodeURIComponent(database.password), 'DATABASE_URL password vs POSTGRES_PASSWORD').toBe(pgEnv.POSTGRES_PASSWORD);
    expect(database.pathname.slice(1), 'DATABASE_URL database vs POSTGRES_DB').toBe(pgEnv.POSTGRES_DB ?? pgEnv.POSTGRES_USER);
    expect(healthCommand(postgres), 'pg_isready should check the database the api uses').toContain(pgEnv.POSTGRES_DB);
    expect(Number(database.port || 5432), 'DATABASE_URL port').toBe(5432);
    const redisHost = new URL(config.redisUrl!).hostname;
    expect(Object.keys(services), `REDIS_URL's host "${redisHost}" is not a service`).toContain(redisHost);
    expect(dependenciesOf(api).sort(), `${apiName} should depend on the database and Redis it uses`).toEqual(expect.arrayContaining([database.hostname, redisHost]));
  });

  it('documents in docs/operations.md every variable it takes from the environment', () => {
    const operations = read('docs/operations.md');
    const start = operations.indexOf('## Deploying with Docker Compose');
    expect(start, 'docs/operations.md has no "## Deploying with Docker Compose" section').toBeGreaterThanOrEqual(0);
    const next = operations.indexOf('\n## ', start + 3);
    const section = operations.slice(start, next < 0 ? undefined : next);
    for (const name of referencedVariables(composeText)) {
      expect(section, `docker-compose.yml reads \${${name}}; the Docker Compose section of docs/operations.md does not name it`).toContain(name);
    }
  });
});

describe('the Dockerfile', () => {
  it("starts the server the way package.json's start script does", () => {
    const cmd = runtimeStage.filter((i) => i.keyword === 'CMD').at(-1);
    expect(cmd, 'the last stage has no CMD').toBeDefined();
    const argv = JSON.parse(cmd!.args) as string[];
    const command = argv.join(' ');
    expect([packageJson.scripts.start, 'npm start'], `CMD ${command} vs "start": "${packageJson.scripts.start}"`).toContain(command);
  });

  it("builds and runs on one Node.js release that package.json's engines allow", () => {
    const majors = dockerfile.map((stage) => {
      const image = stage.find((i) => i.keyword === 'FROM')!.args.split(/\s+/)[0];
      const major = /^node:(\d+)\b/.exec(image)?.[1];
      expect(major, `FROM ${image}: not a node:<major> image`).toBeDefined();
      return Number(major);
    });
    // Compiled dependencies must run where they were installed.
    expect(new Set(majors).size, `the stages use Node ${majors.join(', ')}`).toBe(1);
    const minimum = Number(/^>=\s*(\d+)/.exec(packageJson.engines.node)?.[1]);
    expect(majors[0], `engines.node ${packageJson.engines.node}`).toBeGreaterThanOrEqual(minimum);
    expect(majors[0] % 2, 'an even (long-term support) release').toBe(0);
  });

  it('runs as a user other than root', () => {
    const user = runtimeStage.filter((i) => i.keyword === 'USER').at(-1)?.args;
    expect(user, 'the last stage sets no USER: the server would run as root').toBeDefined();
    expect(['root', '0', '0:0'], 'USER').not.toContain(user);
  });

  it('copies what the start needs at run time: the compiled server and the migrations', () => {
    const workdir = runtimeStage.filter((i) => i.keyword === 'WORKDIR').at(-1)?.args ?? '/';
    const copied = runtimeStage
      .filter((i) => i.keyword === 'COPY')
      .map((i) => posix.relative(workdir, posix.resolve(workdir, i.args.split(/\s+/).at(-1)!)));
    const needs = [
      // The start script's entry file, and the migrations main.ts applies at boot (read from the project root).
      packageJson.scripts.start.split(/\s+/).find((word) => word.endsWith('.js'))!,
      posix.relative(root, migrationsDir()),
      'package.json', // projectRoot() looks for it
    ];
    for (const path of needs) {
      expect(
        copied.some((dest) => dest === '' || path === dest || path.startsWith(`${dest}/`)),
        `the image's last stage copies nothing that holds ${path}`,
      ).toBe(true);
    }
  });
});

describe('deploy/nginx.conf', () => {
  const http = parseNginx(existsSync(posix.join(root, nginxPath)) ? read(nginxPath) : '');
  const [server] = serversOf(http);
  const upstreams = http.filter((d) => d.name === 'upstream' && d.block);

  it('is the file the proxy mounts, read-only', () => {
    expect(existsSync(posix.join(root, nginxPath)), `${proxyName} mounts ${nginxPath}, which does not exist`).toBe(true);
    expect(nginxMount, `${proxyName} should mount the nginx configuration read-only (:ro)`).toMatch(/:ro$/);
    expect(server, 'no server block').toBeDefined();
  });

  it('sends every proxied request, unchanged, to an upstream of the api replicas on the port the server listens on', () => {
    const { config } = configOf(apiEnv);
    for (const upstream of upstreams) {
      for (const entry of upstream.block!.filter((d) => d.name === 'server')) {
        expect(entry.args[0], `upstream ${upstream.args[0]}: server ${entry.args[0]} vs the api service and its PORT`).toBe(`${apiName}:${config.port}`);
        if (entry.args.includes('resolve')) {
          expect(upstream.block!.some((d) => d.name === 'zone'), `upstream ${upstream.args[0]}: resolve needs a zone`).toBe(true);
          expect(http.some((d) => d.name === 'resolver'), 'resolve needs a resolver').toBe(true);
        }
      }
    }
    for (const location of server.locations) {
      const pass = location.directives.find((d) => d.name === 'proxy_pass')?.args[0];
      if (pass === undefined) continue;
      const target = /^http:\/\/([A-Za-z0-9_-]+)$/.exec(pass)?.[1];
      expect(target, `location ${location.path}: proxy_pass ${pass} should name an upstream, with no URI part (that would rewrite paths)`).toBeDefined();
      expect(upstreams.map((u) => u.args[0]), `location ${location.path}: proxy_pass to an unknown upstream`).toContain(target);
    }
  });

  it('listens on the port the proxy publishes and its health check fetches', () => {
    const listen = server.directives.filter((d) => d.name === 'listen').map((d) => Number(d.args[0].split(':').at(-1)));
    expect(publishedContainerPorts(proxy), `${proxyName}'s published port vs nginx's listen`).toEqual(listen);
    for (const { port } of urlsIn(healthCommand(proxy))) expect(listen, `${proxyName}'s health check fetches port ${port}`).toContain(port);
  });

  it('sets X-Forwarded-For, which TRUST_PROXY believes for exactly one hop: this proxy', () => {
    const { config } = configOf(apiEnv);
    expect(config.trustProxy, 'TRUST_PROXY: one proxy stands in front of the api').toBe(1);
    for (const location of server.locations.filter((l) => l.directives.some((d) => d.name === 'proxy_pass'))) {
      const headers = effective(http, server, location, 'proxy_set_header');
      const forwarded = headers.find(([name]) => name.toLowerCase() === 'x-forwarded-for')?.[1];
      expect(['$proxy_add_x_forwarded_for', '$remote_addr'], `location ${location.path}: X-Forwarded-For`).toContain(forwarded);
    }
  });
});

describe('docker-compose.yml and deploy/nginx.conf against the running server', () => {
  let t: TestApp;
  const http = parseNginx(read(nginxPath));
  const [server] = serversOf(http);
  const { config } = configOf(apiEnv);

  beforeAll(async () => {
    t = await startTestApp();
  }, 60_000);
  afterAll(async () => {
    await t?.close();
  });

  /** Every REST route the application has, its `:params` filled in, with what it produces. */
  function routes(): { path: string; produces: string[] }[] {
    const list: { path: string; produces: string[] }[] = [];
    for (const module of t.app.get(ModulesContainer).values()) {
      for (const wrapper of module.controllers.values()) {
        const type = wrapper.metatype as (new (...args: never[]) => unknown) | null;
        if (!type) continue;
        const bases = [Reflect.getMetadata(PATH_METADATA, type) as string | string[]].flat();
        for (const key of Object.getOwnPropertyNames(type.prototype)) {
          const handler = (type.prototype as Record<string, unknown>)[key];
          if (key === 'constructor' || typeof handler !== 'function') continue;
          const subs = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
          if (subs === undefined) continue;
          const produces = (Reflect.getMetadata(DECORATORS.API_PRODUCES, handler) as string[] | undefined) ?? [];
          for (const base of bases) {
            for (const sub of [subs].flat()) {
              const path = posix.join('/', REST_PREFIX, base ?? '', sub).replace(/\/$/, '').replace(/:[A-Za-z]+/g, randomUUID());
              list.push({ path, produces });
            }
          }
        }
      }
    }
    return list;
  }
  const sseRoutes = () => routes().filter((r) => r.produces.includes('text/event-stream')).map((r) => r.path);

  const timeout = (location: NginxLocation, name: string) => nginxMs(effective(http, server, location, name)[0]?.[0] ?? '60s');

  it('answers the health checks’ paths on the port PORT sets', async () => {
    const checks = [healthCommand(api), healthCommand(proxy)].flatMap(urlsIn);
    expect(checks.length, 'no health check fetches a URL').toBeGreaterThan(0);
    for (const { url } of urlsIn(healthCommand(api))) expect(url.port, `${apiName}'s health check port vs PORT`).toBe(String(config.port));
    for (const { url } of checks) {
      const response = await fetch(`${t.baseUrl}${url.pathname}${url.search}`);
      expect(response.status, `a health check fetches ${url.pathname}, which the server answers with ${response.status}`).toBe(200);
    }
  });

  it('finds the server-sent event routes where they are (their paths are real)', async () => {
    const paths = sseRoutes();
    expect(paths.length, 'no route produces text/event-stream: did @ApiProduces go?').toBeGreaterThan(0);
    for (const path of paths) {
      const response = await fetch(`${t.baseUrl}${path}`);
      await response.body?.cancel();
      expect(response.status, `${path} (an event stream, without a token)`).toBe(401);
    }
  });

  it('passes every server-sent event stream unbuffered, with a read timeout well over the keep-alive', () => {
    for (const path of sseRoutes()) {
      const location = locationFor(server, path);
      expect(location, `no nginx location for ${path}`).toBeDefined();
      const name = `${path} (nginx location ${location!.modifier} ${location!.path})`;
      expect(effective(http, server, location!, 'proxy_buffering')[0]?.[0], `${name}: proxy_buffering`).toBe('off');
      expect(timeout(location!, 'proxy_read_timeout'), `${name}: proxy_read_timeout vs SSE_KEEPALIVE_SECONDS`).toBeGreaterThanOrEqual(2 * config.streams.keepAliveMs);
      expect(effective(http, server, location!, 'proxy_http_version')[0]?.[0], `${name}: proxy_http_version`).toBe('1.1');
    }
  });

  it('passes graphql-ws upgrades at /graphql, where the server accepts them', async () => {
    const location = locationFor(server, '/graphql');
    expect(location, 'no nginx location for /graphql').toBeDefined();
    const headers = new Map(effective(http, server, location!, 'proxy_set_header').map(([name, value]) => [name.toLowerCase(), value]));
    expect(effective(http, server, location!, 'proxy_http_version')[0]?.[0], '/graphql: proxy_http_version (WebSocket needs 1.1)').toBe('1.1');
    expect(headers.get('upgrade'), '/graphql: proxy_set_header Upgrade').toBe('$http_upgrade');
    const connection = headers.get('connection') ?? '';
    const mapped = http.find((d) => d.name === 'map' && d.args[0] === '$http_upgrade' && d.args[1] === connection);
    expect(connection === 'upgrade' || mapped?.block?.some((d) => d.name === 'default' && d.args[0] === 'upgrade'), `/graphql: Connection ${connection} should say upgrade`).toBe(true);
    expect(timeout(location!, 'proxy_read_timeout'), '/graphql: proxy_read_timeout vs WS_IDLE_SECONDS (nginx would close sockets the server keeps)').toBeGreaterThan(
      config.live.idleSeconds * 1000,
    );
    const socket = new WebSocket(`${t.baseUrl.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws');
    const opened = await new Promise<boolean>((resolve) => {
      socket.once('open', () => resolve(true));
      socket.once('error', () => resolve(false));
    });
    socket.close();
    expect(opened, 'the server refused a graphql-ws upgrade at /graphql').toBe(true);
  });

  it('treats specially only paths that are routes of the server', () => {
    const special = server.locations.filter((l) => l.path !== '/' && l.directives.some((d) => d.name === 'proxy_pass'));
    const known = [...routes().map((r) => r.path), '/graphql'];
    for (const location of special) {
      expect(
        known.some((path) => locationFor(server, path) === location),
        `nginx location ${location.modifier} ${location.path} matches no route of the server`,
      ).toBe(true);
    }
  });

  it('closes idle upstream connections before the server does', () => {
    const serverIdleMs = (t.app.getHttpServer() as Server).keepAliveTimeout;
    for (const upstream of http.filter((d) => d.name === 'upstream' && d.block)) {
      if (!upstream.block!.some((d) => d.name === 'keepalive')) continue;
      const idle = nginxMs(upstream.block!.find((d) => d.name === 'keepalive_timeout')?.args[0] ?? '60s');
      expect(idle, `upstream ${upstream.args[0]}: keepalive_timeout vs the server's keepAliveTimeout (${serverIdleMs} ms)`).toBeLessThan(serverIdleMs);
    }
  });
});
