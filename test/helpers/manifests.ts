// Small manifests the CLI tests share.

/** A Deployment mounting claim `data`, which is not in its namespace: pod-missing-pvc (a note unless bundle-complete). */
export const MISSING_CLAIM = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: shop}
spec:
  template:
    spec:
      containers: [{name: web, image: nginx}]
      volumes: [{name: d, persistentVolumeClaim: {claimName: data}}]
`;

/** A claim `data` in namespace `app` (no class: a note when the repo has no default StorageClass). */
export const PVC = `apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data, namespace: app}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
`;
/** A Deployment of namespace `app` mounting claim `data`. */
export const DEPLOYMENT_SAME_NAMESPACE = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: app}
spec:
  replicas: 1
  strategy: {type: Recreate}
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx, volumeMounts: [{name: d, mountPath: /d}]}]
      volumes:
        - name: d
          persistentVolumeClaim:
            claimName: data
`;
/** The same Deployment in namespace `shop`: pod-missing-pvc. */
export const DEPLOYMENT_WRONG_NAMESPACE = DEPLOYMENT_SAME_NAMESPACE.replace('namespace: app', 'namespace: shop');
