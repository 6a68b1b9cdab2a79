// No Docker engine runs here, so the compose file is checked as data: its services, health
// checks and volumes, and that every service's environment is valid configuration.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigSchema, loadConfig } from '../../src/config.js';
import { processNodeFlags } from '../../src/project-paths.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<string, { image?: string; build?: unknown; environment?: Record<string, string>; healthcheck?: unknown; volumes?: string[]; command?: string[] }>;
  volumes: Record<string, unknown>;
};
const pinned = /OPENSEARCH_VERSION=(\S+)/.exec(read('stack.env'))![1];

t.test('the stack of scripts/stack.sh, plus Dashboards, a migrate job, the API and the indexer', async (t) => {
  t.same(Object.keys(compose.services).sort(), ['api', 'indexer', 'migrate', 'opensearch', 'opensearch-dashboards', 'postgres', 'redis']);
  t.equal(compose.services.opensearch!.image, 'opensearchproject/opensearch:${OPENSEARCH_VERSION}');
  t.ok(pinned, 'stack.env pins the version both use');
  for (const name of ['postgres', 'redis', 'opensearch', 'api', 'indexer']) t.ok(compose.services[name]!.healthcheck, `${name} has a health check`);
  t.ok('postgres-data' in compose.volumes && 'opensearch-data' in compose.volumes, 'data lives in volumes');
  for (const name of ['api', 'indexer']) t.ok(compose.services[name]!.volumes?.includes('media-data:/app/.media'), `${name}: image files in the shared media volume`);
  t.same(compose.services.migrate!.command, ['node', 'dist/src/cli.js', 'setup']);
  // The images run the compiled build: each command names the output of a source that exists
  // and that tsconfig.build.json compiles.
  const built = (JSON.parse(read('tsconfig.build.json')) as { include: string[] }).include;
  for (const name of ['migrate', 'api', 'indexer']) {
    const [runtime, ...args] = compose.services[name]!.command!;
    const script = args.find((arg) => !arg.startsWith('--'));
    const source = script!.replace(/^dist\//, '').replace(/\.js$/, '.ts');
    t.equal(runtime, 'node', `${name} runs node`);
    t.doesNotThrow(() => read(source), `${name}: ${script} is built from ${source}`);
    t.ok(built.includes(source.split('/')[0]!), `${name}: ${source} is in the build`);
  }
  // The long-running processes get production's heap flags (package.json config.node_flags).
  for (const name of ['api', 'indexer']) t.same(compose.services[name]!.command!.slice(1, -1), processNodeFlags(), `${name} runs with the V8 flags`);
});

t.test('the environment of every app service is valid configuration', async (t) => {
  const known = Object.keys(ConfigSchema.properties);
  for (const name of ['api', 'indexer', 'migrate']) {
    const env = compose.services[name]!.environment!;
    t.same(Object.keys(env).filter((k) => !known.includes(k)), [], `${name}: no unknown variable`);
    for (const required of ['DATABASE_URL', 'REDIS_URL', 'OPENSEARCH_URL']) t.ok(env[required], `${name}: ${required}`);
    t.doesNotThrow(() => loadConfig(env), `${name}: loadConfig accepts it`);
  }
  t.equal(compose.services.api!.environment!.HOST, '0.0.0.0', 'the API listens beyond the container loopback');
});

t.test('the Dockerfile is multi-stage, builds, ships the data files and runs as non-root', async (t) => {
  const dockerfile = read('Dockerfile');
  t.ok((dockerfile.match(/^FROM /gm) ?? []).length >= 2, 'multi-stage');
  t.match(dockerfile, /^RUN npm run build$/m);
  for (const data of ['mappings/*.json', 'drizzle', 'data']) t.match(dockerfile, new RegExp(`^COPY ${data.replace('*', '\\*').replace('.', '\\.')} `, 'm'), `ships ${data}`);
  t.match(dockerfile, /^USER node$/m);
  t.match(dockerfile, `\nCMD ${JSON.stringify(['node', ...processNodeFlags(), 'dist/src/server.js'])}`.replaceAll(',', ', '), 'the API runs with the V8 flags');
});
