// `pool manifests --kubernetes N`: the runner image as a Kubernetes service — a Deployment of N runner pods, a headless
// Service (each pod keeps its own address, so a bug's cells stay on one runner: bug affinity), and a
// PodDisruptionBudget that lets a drain take one runner at a time (the scheduler moves that runner's cells on). The
// token comes from a Secret mounted as a file (the runner's --token-file), never from the manifests. Validated offline
// against the Kubernetes schemas in test/unit/cli/kubernetes-manifests.test.ts; applied with kubectl (docs/deploy.md).
import { BWRAP_CAPABILITIES } from './pool-engine.ts';

export interface KubernetesPoolOptions {
  name: string;
  runners: number;
  /** an image that runs the runner (Node, this checkout, a JDK, bubblewrap): its entry point takes the runner's flags */
  image: string;
  namespace: string;
  /** validations each runner takes at once (its --workers) */
  capacity: number;
  /** per runner */
  cpus: number;
  memoryMb: number;
  /** the Secret holding the runners' token (key `token`) */
  tokenSecret: string;
}

const PORT = 8765;

export function kubernetesManifests(o: KubernetesPoolOptions): Record<string, unknown>[] {
  const app = `repairlab-runner-${o.name}`;
  const labels = { 'app.kubernetes.io/name': 'repairlab-runner', 'app.kubernetes.io/instance': o.name };
  const metadata = { name: app, namespace: o.namespace, labels };
  const deployment = {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata,
    spec: {
      replicas: o.runners,
      selector: { matchLabels: labels },
      // one runner replaced at a time: the others keep serving their bugs
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: 0 } },
      template: {
        metadata: { labels },
        spec: {
          automountServiceAccountToken: false,
          // a user namespace of the pod's own: required for procMount Unmasked, and the capabilities above are then
          // the namespace's, not the node's
          hostUsers: false,
          containers: [
            {
              name: 'runner',
              image: o.image,
              args: ['--host', '0.0.0.0', '--port', String(PORT), '--workers', String(o.capacity), '--sandbox', 'bwrap', '--data-dir', '/data', '--token-file', '/var/run/repairlab/token'],
              ports: [{ name: 'runner', containerPort: PORT, protocol: 'TCP' }],
              resources: {
                requests: { cpu: String(o.cpus), memory: `${o.memoryMb}Mi` },
                limits: { cpu: String(o.cpus), memory: `${o.memoryMb}Mi` },
              },
              // /v1/health wants the token; that the port takes connections is what Kubernetes can see
              readinessProbe: { tcpSocket: { port: PORT }, periodSeconds: 5 },
              livenessProbe: { tcpSocket: { port: PORT }, periodSeconds: 20, failureThreshold: 3 },
              // bubblewrap makes its namespaces and mounts its own /proc inside the pod: what `pool up --docker` needed
              // on a real engine (docker-runners.ts) — these capabilities, no seccomp or AppArmor filter, and an
              // unmasked /proc (which Kubernetes grants to a pod in its own user namespace: hostUsers false). Everything
              // else stays locked: the rest of the capabilities dropped, a read-only root, /tmp in memory. The
              // runner's health answer says which isolation it obtained (docs/deploy.md).
              securityContext: {
                capabilities: { drop: ['ALL'], add: BWRAP_CAPABILITIES },
                seccompProfile: { type: 'Unconfined' },
                appArmorProfile: { type: 'Unconfined' },
                procMount: 'Unmasked',
                readOnlyRootFilesystem: true,
                allowPrivilegeEscalation: false,
              },
              volumeMounts: [
                { name: 'token', mountPath: '/var/run/repairlab', readOnly: true },
                { name: 'data', mountPath: '/data' },
                { name: 'tmp', mountPath: '/tmp' },
              ],
            },
          ],
          volumes: [
            { name: 'token', secret: { secretName: o.tokenSecret, defaultMode: 0o400, items: [{ key: 'token', path: 'token' }] } },
            { name: 'data', emptyDir: { sizeLimit: '4Gi' } },
            { name: 'tmp', emptyDir: { medium: 'Memory', sizeLimit: '512Mi' } },
          ],
        },
      },
    },
  };
  const service = {
    apiVersion: 'v1',
    kind: 'Service',
    metadata,
    // headless: DNS answers each runner pod's own address (the pool descriptor lists them one by one)
    spec: { clusterIP: 'None', selector: labels, ports: [{ name: 'runner', port: PORT, targetPort: PORT, protocol: 'TCP' }] },
  };
  const budget = {
    apiVersion: 'policy/v1',
    kind: 'PodDisruptionBudget',
    metadata,
    spec: { maxUnavailable: 1, selector: { matchLabels: labels } },
  };
  return [deployment, service, budget];
}
