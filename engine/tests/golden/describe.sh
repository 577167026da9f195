# kubectl describe: pod, deployment, replicaset, node, with Events and Conditions.
kubectl create deployment web --image=nginx:1.27 --replicas=2
sim settle
kubectl describe deployment web
kubectl describe rs
kubectl describe pods -l app=web
kubectl describe node node-1
kubectl describe pod missing # expect error
kubectl apply -f - <<ZZ
apiVersion: v1
kind: Pod
metadata: {name: with-init}
spec:
  initContainers:
  - {name: migrate, image: migrate:1.0}
  containers:
  - {name: app, image: nginx:1.27}
ZZ
sim advance 4s
kubectl get pod with-init
sim advance 20s
kubectl get pod with-init
kubectl describe pod with-init
kubectl apply -f - <<ZZ
apiVersion: v1
kind: Pod
metadata: {name: probed, labels: {app: probed}}
spec:
  topologySpreadConstraints:
  - {maxSkew: 1, topologyKey: kubernetes.io/hostname, whenUnsatisfiable: ScheduleAnyway, labelSelector: {matchLabels: {app: probed}}}
  containers:
  - name: app
    image: nginx:1.27
    livenessProbe: {httpGet: {path: /healthz, port: 8080}, periodSeconds: 5}
    readinessProbe: {tcpSocket: {port: 8080}, initialDelaySeconds: 2}
    startupProbe: {exec: {command: [cat, /tmp/ready]}, failureThreshold: 30}
ZZ
sim advance 5s
kubectl describe pod probed
kubectl create pdb web --selector=app=web --min-available=1
sim advance 2s
kubectl describe pod probed
kubectl describe namespace default
kubectl create priorityclass high --value=1000 --description='for the web tier'
kubectl describe priorityclass high
kubectl annotate pod probed note='a long note: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa' short=x
kubectl describe pod probed
# Command, Args, Environment, Mounts and Volumes as describe.go prints them (the
# ConfigMap, Secret and claim they name exist, so the Pod starts).
kubectl create configmap app-config --from-literal=level=debug
kubectl create secret generic db-creds --from-literal=password=hunter2
kubectl apply -f - <<YAML
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: data-0}
spec:
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
YAML
sim advance 3s
kubectl apply -f - <<YAML
apiVersion: v1
kind: Pod
metadata:
  name: full
  labels: {app: full}
spec:
  volumes:
  - name: scratch
    emptyDir: {sizeLimit: 1Gi}
  - name: config
    configMap: {name: app-config}
  - name: creds
    secret: {secretName: db-creds, optional: true}
  - name: logs
    hostPath: {path: /var/log/app, type: DirectoryOrCreate}
  - name: data
    persistentVolumeClaim: {claimName: data-0}
  containers:
  - name: app
    image: nginx:1.27
    command: ["/bin/app", "--serve"]
    args: ["--port=8080"]
    resources: {requests: {cpu: 250m, memory: 64Mi}}
    env:
    - {name: MODE, value: production}
    - name: POD_NAME
      valueFrom: {fieldRef: {fieldPath: metadata.name}}
    - name: APP_LABEL
      valueFrom: {fieldRef: {fieldPath: "metadata.labels['app']"}}
    - name: CPU_LIMIT
      valueFrom: {resourceFieldRef: {resource: limits.cpu}}
    - name: CPU_REQUEST
      valueFrom: {resourceFieldRef: {resource: requests.cpu}}
    - name: PASSWORD
      valueFrom: {secretKeyRef: {name: db-creds, key: password}}
    - name: LEVEL
      valueFrom: {configMapKeyRef: {name: app-config, key: level, optional: true}}
    volumeMounts:
    - {name: scratch, mountPath: /tmp}
    - {name: config, mountPath: /etc/app, readOnly: true}
    - {name: logs, mountPath: /var/log/app, subPath: full}
YAML
sim advance 5s
kubectl describe pod full
