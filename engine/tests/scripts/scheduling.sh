# Requests, not usage: 8Gi allocatable − 6Gi requested < 3Gi.
sim reset --nodes 1 --cpu 4 --memory 8Gi
kubectl apply -f - <<YAML
apiVersion: apps/v1
kind: Deployment
metadata:
  name: big
spec:
  replicas: 2
  selector:
    matchLabels: {app: big}
  template:
    metadata:
      labels: {app: big}
    spec:
      containers:
      - name: app
        image: busybox:1.36
        resources:
          requests: {memory: 3Gi}
YAML
sim settle
sim expect deployment/big {.status.readyReplicas} == 2
kubectl scale deployment big --replicas=3
sim advance 10s
sim expect count pods -l app=big --field status.phase=Pending == 1
kubectl get events --field-selector reason=FailedScheduling
sim node add node-2 --cpu 4 --memory 8Gi
sim settle
sim expect deployment/big {.status.readyReplicas} == 3
