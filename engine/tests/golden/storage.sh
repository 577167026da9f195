# StatefulSets, claims and volumes as kubectl shows them: ordered start with a claim
# per ordinal from the default StorageClass, the scheduler waiting for the binding,
# get and describe of every storage kind, a Pod on a powered-off node that is not
# replaced until it is force-deleted and whose disk is released to its replacement only
# when the node is declared out of service, a partitioned rolling update, scale-down that
# keeps the claims, ConfigMaps and Secrets with the kubelet's FailedMount, and the
# API server's refusals.
kubectl get storageclass
kubectl apply -f statefulset.yaml
sim advance 3s
kubectl get pods,pvc
kubectl get events --field-selector involvedObject.name=web-0
sim settle
kubectl get sts,pods,pvc -o wide
kubectl get pv
kubectl describe sts web
kubectl describe pvc data-web-1
kubectl describe sc standard
kubectl get controllerrevisions
sim node down node-3
sim advance 400s
kubectl get pods -o wide
kubectl delete pod web-1 --grace-period=0 --force
sim advance 30s
kubectl get pods -o wide
kubectl get pvc data-web-1
kubectl get events --field-selector reason=FailedAttachVolume
kubectl get node node-3 -o jsonpath='{.status.volumesAttached[*].name}{"\n"}{.status.volumesInUse}{"\n"}'
kubectl taint node node-3 node.kubernetes.io/out-of-service=nodeshutdown:NoExecute
sim advance 10s
kubectl get pods -o wide
kubectl get events --field-selector involvedObject.name=web-1,reason=SuccessfulAttachVolume
kubectl patch sts web -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":1}}}}'
kubectl set image sts/web nginx=nginx:1.28
sim advance 90s
kubectl get pods -L controller-revision-hash
kubectl get controllerrevisions
kubectl get sts web -o jsonpath='{.status.currentRevision} {.status.updateRevision} {.status.updatedReplicas}{"\n"}'
kubectl scale sts web --replicas=1
sim advance 60s
kubectl get pods,pvc
kubectl patch sts web -p '{"spec":{"serviceName":"other"}}'   # expect error
kubectl apply -f - <<YAML   # expect error
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: bad}
spec:
  resources: {}
YAML
kubectl apply -f - <<YAML
apiVersion: v1
kind: PersistentVolumeClaim
metadata: {name: fast}
spec:
  storageClassName: fast
  accessModes: [ReadWriteOnce]
  resources: {requests: {storage: 1Gi}}
YAML
sim advance 2s
kubectl describe pvc fast
kubectl apply -f - <<YAML
apiVersion: v1
kind: Pod
metadata: {name: cfg}
spec:
  volumes:
  - name: config
    configMap: {name: app-config}
  containers:
  - name: app
    image: nginx:1.27
    volumeMounts:
    - {name: config, mountPath: /etc/app}
YAML
sim advance 20s
kubectl get pod cfg
kubectl get events --field-selector involvedObject.name=cfg
kubectl create configmap app-config --from-literal=level=debug --dry-run=client -o yaml
kubectl create configmap app-config --from-literal=level=debug
kubectl create configmap x --from-literal=bad   # expect error
kubectl create secret generic db-creds --from-literal=password=hunter2 -o yaml
kubectl create secret generic   # expect error
sim advance 70s
kubectl get pod cfg
kubectl get cm,secret
kubectl describe cm app-config
kubectl describe secret db-creds
kubectl delete sts web
kubectl delete pvc data-web-0 data-web-1 data-web-2
sim advance 10s
kubectl get pvc,pv
