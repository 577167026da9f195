# PriorityClass and preemption: a higher-priority Pod makes room by deleting a lower one.
sim reset --nodes 2 --cpu 2 --memory 4Gi --dns=false
kubectl get priorityclasses
kubectl create priorityclass critical --value=1000 --description="payments"
kubectl create priorityclass polite --value=1000 --preemption-policy=Never
kubectl get pc
kubectl create deployment batch --image=busybox:1.36 --replicas=4
kubectl apply -f - <<ZZ
apiVersion: apps/v1
kind: Deployment
metadata:
  name: batch
spec:
  replicas: 4
  selector:
    matchLabels:
      app: batch
  template:
    metadata:
      labels:
        app: batch
    spec:
      containers:
      - name: busybox
        image: busybox:1.36
        resources:
          requests:
            cpu: 900m
ZZ
sim settle
kubectl get pods -o wide
kubectl apply -f - <<ZZ
apiVersion: v1
kind: Pod
metadata:
  name: waiter
spec:
  priorityClassName: polite
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: "1"
ZZ
sim advance 2s
kubectl get pod waiter -o jsonpath={.spec.priority}/{.spec.preemptionPolicy}
kubectl get events --field-selector involvedObject.name=waiter
kubectl delete pod waiter
kubectl apply -f - <<ZZ
apiVersion: v1
kind: Pod
metadata:
  name: payments
spec:
  priorityClassName: critical
  containers:
  - name: app
    image: nginx:1.27
    resources:
      requests:
        cpu: "1"
ZZ
sim advance 2s
kubectl get pods -o wide
sim why pod/payments
kubectl get events --field-selector reason=Preempted
sim advance 40s
kubectl get pods -o wide
kubectl get events --field-selector involvedObject.name=payments
kubectl apply -f - <<ZZ # expect error
apiVersion: v1
kind: Pod
metadata:
  name: typo
spec:
  priorityClassName: critcal
  containers:
  - name: app
    image: nginx:1.27
ZZ
kubectl describe pod payments
