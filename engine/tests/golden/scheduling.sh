# Why a Pod landed where it did, or why it is Pending: filters, scores, spread, affinity.
sim reset --nodes 0 --dns=false
sim node add a1 --cpu 4 --memory 8Gi --labels topology.kubernetes.io/zone=a,disk=nvme
sim node add a2 --cpu 4 --memory 8Gi --labels topology.kubernetes.io/zone=a
sim node add b1 --cpu 4 --memory 8Gi --pods 1 --labels topology.kubernetes.io/zone=b
kubectl apply -f - <<ZZ
apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  replicas: 4
  selector:
    matchLabels:
      app: web
  template:
    metadata:
      labels:
        app: web
    spec:
      topologySpreadConstraints:
      - maxSkew: 1
        topologyKey: topology.kubernetes.io/zone
        whenUnsatisfiable: DoNotSchedule
        labelSelector:
          matchLabels:
            app: web
      containers:
      - name: web
        image: nginx:1.27
        resources:
          requests:
            cpu: 500m
            memory: 1Gi
ZZ
sim advance 30s
kubectl get pods -o wide
sim why pod/web-78b886fc56-kmcs7
sim why pod/web-78b886fc56-lksmp
kubectl get events --field-selector reason=FailedScheduling
sim node add b2 --cpu 4 --memory 8Gi --labels topology.kubernetes.io/zone=b
sim advance 10s
kubectl get pods -o wide
sim why nope # expect error
