// No Docker engine runs here, so the compose file is checked as data: its services, health
// checks and volumes, and that every service's environment is valid configuration.
import t from 'tap';
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { ConfigSchema, loadConfig } from '../../src/platform/config.js';
import { processNodeFlags } from '../../src/platform/project-paths.js';

const read = (file: string) => readFileSync(new URL(`../../${file}`, import.meta.url), 'utf8');
const compose = parse(read('docker-compose.yml'), { merge: true }) as {
  services: Record<
    string,
    {
      image?: string;
      build?: unknown;
      profiles?: string[];
      environment?: Record<string, string>;
      healthcheck?: { test: string[] };
      volumes?: string[];
      ports?: string[];
      command?: string[];
      depends_on?: Record<string, unknown>;
    }
  >;
  volumes: Record<string, unknown>;
};
const pinned = /OPENSEARCH_VERSION=(\S+)/.exec(read('stack.env'))![1];

const inProfile = (profile: string | undefined) =>
  Object.keys(compose.services)
    .filter((name) => compose.services[name]!.profiles?.[0] === profile)
    .sort();

t.test('the stack of scripts/stack.sh, plus Dashboards, a migrate job, the API and the indexer', async (t) => {
  t.same(inProfile(undefined), ['api', 'dashboards-setup', 'indexer', 'migrate', 'opensearch', 'opensearch-dashboards', 'postgres', 'redis']);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: compose's own variable syntax, read as text.
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

t.test("Dashboards loads the analysts' saved objects once it answers", async (t) => {
  const dashboards = compose.services['opensearch-dashboards']!;
  t.match(dashboards.healthcheck!.test.join(' '), /api\/status/, 'Dashboards is healthy once its API answers');
  const setup = compose.services['dashboards-setup'] as typeof dashboards & { entrypoint: string[] };
  t.same(setup.depends_on, { 'opensearch-dashboards': { condition: 'service_healthy' } });
  t.same(setup.volumes, ['./analytics/dashboards.ndjson:/objects/dashboards.ndjson:ro'], 'the generated saved objects (npm run docs:analytics)');
  t.doesNotThrow(() => read('analytics/dashboards.ndjson'), 'which exist');
  const command = setup.entrypoint.join(' ');
  t.match(command, /POST http:\/\/opensearch-dashboards:5601\/api\/saved_objects\/_import\?overwrite=true/, 'imported, replacing older versions');
  t.match(command, /osd-xsrf: true/, 'with the header Dashboards asks of API calls');
  t.match(command, /file=@\/objects\/dashboards.ndjson/);
});

t.test('the environment of every app service is valid configuration', async (t) => {
  const known = Object.keys(ConfigSchema.properties);
  for (const name of ['api', 'indexer', 'migrate', 'api-cluster', 'indexer-cluster', 'migrate-cluster']) {
    const env = compose.services[name]!.environment!;
    t.same(
      Object.keys(env).filter((k) => !known.includes(k)),
      [],
      `${name}: no unknown variable`,
    );
    for (const required of ['DATABASE_URL', 'REDIS_URL', 'OPENSEARCH_URL']) t.ok(env[required], `${name}: ${required}`);
    t.doesNotThrow(() => loadConfig(env), `${name}: loadConfig accepts it`);
  }
  t.equal(compose.services.api!.environment!.HOST, '0.0.0.0', 'the API listens beyond the container loopback');
  for (const name of ['api', 'api-cluster']) {
    const service = compose.services[name]!;
    const metricsPort = loadConfig(service.environment!).METRICS_PORT;
    t.ok(metricsPort > 0, `${name}: serves its metrics on an operations port`);
    t.notOk(
      service.ports?.some((port) => port.endsWith(`:${metricsPort}`)),
      `${name}: the operations port is published nowhere`,
    );
  }
  t.notOk(compose.services.indexer!.ports, "the indexer's operations port is published nowhere");
});

t.test('the cluster profile: three OpenSearch nodes of one cluster, and an API and indexer that name all three', async (t) => {
  const nodes = ['opensearch-1', 'opensearch-2', 'opensearch-3'];
  t.same(inProfile('cluster'), ['api-cluster', 'indexer-cluster', 'migrate-cluster', ...nodes].sort());
  const single = compose.services.opensearch!;
  for (const name of nodes) {
    const node = compose.services[name]!;
    const env = node.environment!;
    t.equal(node.image, single.image, `${name}: the version the single node runs`);
    t.equal(env['node.name'], name);
    t.equal(env['discovery.seed_hosts'], nodes.join(','), `${name}: discovers the others`);
    t.equal(env['cluster.initial_cluster_manager_nodes'], nodes.join(','), `${name}: the 3.x bootstrap setting names every node`);
    t.notOk('discovery.type' in env, `${name}: not single-node`);
    for (const key of ['DISABLE_SECURITY_PLUGIN', 'DISABLE_INSTALL_DEMO_CONFIG', 'OPENSEARCH_JAVA_OPTS', 'action.auto_create_index']) {
      t.equal(env[key], single.environment![key], `${name}: ${key} as the single node has it`);
    }
    t.same(node.volumes, [`${name}-data:/usr/share/opensearch/data`], `${name}: data in a volume of its own`);
    t.ok(`${name}-data` in compose.volumes);
    t.match(node.healthcheck!.test.join(' '), /wait_for_status=green&wait_for_nodes=3/, `${name}: healthy once all three have joined`);
    t.ok(
      node.ports!.every((port) => port.startsWith('127.0.0.1:')),
      `${name}: published on loopback only`,
    );
  }
  const nodeUrls = compose.services['api-cluster']!.environment!.OPENSEARCH_URL!.split(',');
  t.same(
    nodeUrls,
    nodes.map((n) => `http://${n}:9200`),
    'the API names every node',
  );
  for (const app of ['api', 'indexer', 'migrate']) {
    const clustered = compose.services[`${app}-cluster`]!;
    t.same(clustered.command, compose.services[app]!.command, `${app}-cluster runs what ${app} runs`);
    t.equal(clustered.environment!.OPENSEARCH_URL, nodeUrls.join(','), `${app}-cluster: the same nodes`);
    const { OPENSEARCH_SHARDS, OPENSEARCH_REPLICAS } = loadConfig(clustered.environment!);
    t.same([OPENSEARCH_SHARDS, OPENSEARCH_REPLICAS], [3, 1], `${app}-cluster: a primary per node, a copy of each on another`);
  }
  t.same(
    Object.keys(compose.services['migrate-cluster']!.depends_on!)
      .filter((d) => d.startsWith('opensearch'))
      .sort(),
    nodes,
    'setup waits for every node',
  );
});

t.test('the Dockerfile is multi-stage, builds, ships the data files and runs as non-root', async (t) => {
  const dockerfile = read('Dockerfile');
  t.ok((dockerfile.match(/^FROM /gm) ?? []).length >= 2, 'multi-stage');
  t.match(dockerfile, /^RUN npm run build$/m);
  for (const data of ['mappings/*.json', 'drizzle', 'data']) t.match(dockerfile, new RegExp(`^COPY ${data.replace('*', '\\*').replace('.', '\\.')} `, 'm'), `ships ${data}`);
  t.match(dockerfile, /^USER node$/m);
  t.match(dockerfile, `\nCMD ${JSON.stringify(['node', ...processNodeFlags(), 'dist/src/server.js'])}`.replaceAll(',', ', '), 'the API runs with the V8 flags');
});
