// The Kubernetes manifests `repairlab pool manifests --kubernetes` writes, validated offline against the Kubernetes
// API schemas (kubernetes-models: the OpenAPI schemas of apps/v1, v1 and policy/v1), and what they promise the pool:
// N runners, one address per runner, a token from a Secret, one runner down at a time.
import { describe, expect, it } from 'vitest';
import { Deployment } from 'kubernetes-models/apps/v1/Deployment';
import { Service } from 'kubernetes-models/v1/Service';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1/PodDisruptionBudget';
import { kubernetesManifests } from '../../../worker/cli/pool/kubernetes-manifests.ts';
import { BWRAP_CAPABILITIES } from '../../../worker/cli/pool/pool-engine.ts';

const options = { name: 'lab', runners: 4, image: 'registry.example.org/repairlab-runner:1', namespace: 'apr', capacity: 2, cpus: 2, memoryMb: 4096, tokenSecret: 'repairlab-runner-token' };
const validate = (m: Record<string, unknown>) => {
  const Model = { Deployment, Service, PodDisruptionBudget }[m.kind as string];
  if (!Model) throw new Error(`no schema for kind ${String(m.kind)}`);
  new (Model as new (data: unknown) => { validate(): void })(m).validate();
};

describe('pool manifests --kubernetes', () => {
  it('validate against the Kubernetes schemas', () => {
    const manifests = kubernetesManifests(options);
    expect(manifests.map((m) => `${String(m.apiVersion)} ${String(m.kind)}`)).toEqual(['apps/v1 Deployment', 'v1 Service', 'policy/v1 PodDisruptionBudget']);
    for (const m of manifests) expect(() => validate(m)).not.toThrow();
  });

  it('the validation finds what a cluster would refuse', () => {
    const [deployment] = kubernetesManifests(options) as [{ spec: { template: { spec: { containers: { ports: { containerPort: unknown }[] }[] } } } }];
    deployment.spec.template.spec.containers[0]!.ports[0]!.containerPort = '8765';
    expect(() => validate(deployment as unknown as Record<string, unknown>)).toThrow(/containerPort must be integer/);
  });

  it('N runners, each with its own address, the token from the Secret, one down at a time', () => {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any -- nested manifest fields, read in a test
    const [deployment, service, budget] = kubernetesManifests(options) as Record<string, any>[];
    expect(deployment!.spec.replicas).toBe(4);
    expect(service!.spec.clusterIP).toBe('None');
    expect(budget!.spec.maxUnavailable).toBe(1);
    const container = deployment!.spec.template.spec.containers[0];
    expect(container.args).toEqual(expect.arrayContaining(['--token-file', '/var/run/repairlab/token', '--workers', '2']));
    expect(deployment!.spec.template.spec.volumes[0].secret.secretName).toBe('repairlab-runner-token');
    expect(JSON.stringify(deployment)).not.toMatch(/REPAIRLAB_RUNNER_TOKEN"|"--token",/);
    // bubblewrap inside the pod gets what it needed under Docker (pool up --docker), in a user namespace of its own
    expect(container.securityContext).toMatchObject({ capabilities: { drop: ['ALL'], add: BWRAP_CAPABILITIES }, procMount: 'Unmasked', readOnlyRootFilesystem: true });
    expect(deployment!.spec.template.spec.hostUsers).toBe(false);
    // every selector picks exactly the Deployment's pods
    expect(service!.spec.selector).toEqual(deployment!.spec.template.metadata.labels);
    expect(budget!.spec.selector.matchLabels).toEqual(deployment!.spec.template.metadata.labels);
  });
});
