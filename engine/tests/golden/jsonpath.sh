# -o jsonpath as client-go's printer executes it, errors included (checked against kubectl 1.32 with --local).
kubectl apply -f - <<EOF
apiVersion: v1
kind: Pod
metadata:
  name: p
  labels: {app: web, tier: fe}
spec:
  containers:
  - name: a
    image: nginx:1.27
    ports: [{containerPort: 80, name: http}]
  - name: b
    image: busybox:1.36
EOF
kubectl get pod p -o jsonpath='{range .spec.containers[*]}{.name}{"\t"}{.image}{"\n"}{end}'
kubectl get pod p -o jsonpath='{.spec.containers[?(@.name!="a")].name} {.spec.containers[-1].name} {.spec.containers[2:2].name}'
kubectl get pod p -o jsonpath='{.spec.nope}{.metadata.labels.missing}'
kubectl get pod p -o jsonpath='A{.metadata.name}{.spec.containers[7].name}B'   # expect error
kubectl get pod p -o jsonpath='{.spec.containers[1:7].name}'   # expect error
kubectl get pod p -o jsonpath='{.spec.containers[-3].name}'   # expect error
kubectl get pod p -o jsonpath='{.metadata.name[0]}'   # expect error
kubectl get pod p -o jsonpath='{.metadata[*]}'   # expect error
kubectl get pod p -o jsonpath='{.spec.containers[?(@.image=~"nginx")].name}'   # expect error
kubectl get pod p -o jsonpath='{.metadata.labels[app]}'   # expect error
kubectl get pod p -o jsonpath='{.metadata.name'   # expect error
