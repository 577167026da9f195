# Every -o kubectl get knows, printed as client-go's printers print the same objects (checked against kubectl 1.32 on the objects kubeplay serves).
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
sim settle
kubectl get pods -o foo   # expect error
kubectl get pods -o custom-columns=NAME   # expect error
kubectl get pods -o custom-columns=   # expect error
kubectl get pods -o custom-columns=NAME:.metadata.name,C:.spec.containers[*].name,P:.spec.containers[*].ports,L:.metadata.labels,X:.nope,E:
kubectl get pods,nodes -o custom-columns=NAME:.metadata.name,K:kind,IP:{.status.podIP} --no-headers
kubectl get pods -o 'custom-columns=A:{.metadata.name'   # expect error
kubectl get pods -o 'custom-columns=A:.metadata['   # expect error
kubectl get pods -o 'custom-columns=A:.spec.containers[5].name'   # expect error
kubectl get pods -o custom-columns-file=columns.txt
kubectl get pods -o custom-columns-file=nope.txt   # expect error
kubectl get pods -n empty -o custom-columns=A:.x
kubectl get pods -o go-template='{{range .items}}{{.metadata.name}}{{"\n"}}{{end}}'
kubectl get pod p -o go-template='{{.spec.containers}} {{len .spec.containers}} {{.nope}} {{if .spec.nodeName}}bound{{else}}pending{{end}}'
kubectl get pods -o go-template-file=names.gotmpl
kubectl get pod p -o go-template='{{.x'   # expect error
kubectl get pod p -o go-template='{{foo}}'   # expect error
kubectl get pods -o go-template   # expect error
kubectl get pods -o jsonpath-file=nope.txt   # expect error
kubectl get pods -L app,nope
kubectl get pods -L tier --show-labels
kubectl get pods --sort-by=.metadata.nope   # expect error
kubectl get pods --sort-by=.metadata[   # expect error
kubectl get pods --sort-by='{.metadata.name'   # expect error
kubectl get pods -o name --sort-by='.spec.containers[3].name'   # expect error
