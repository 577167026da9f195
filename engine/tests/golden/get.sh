# kubectl get: every kind, every output format, selectors and errors.
kubectl get pods
kubectl apply -f web.yaml
sim settle
kubectl get deployments
kubectl get deploy,rs,pods
kubectl get pods -o wide
kubectl get pods --show-labels
kubectl get nodes
kubectl get nodes -o wide
kubectl get rs -o wide
kubectl get leases -n kube-node-lease
kubectl get pods -o name
kubectl get deployment web -o jsonpath='{.spec.replicas} {.status.readyReplicas}{"\n"}'
kubectl get pods -o jsonpath='{range .items[*]}{.metadata.name}{" on "}{.spec.nodeName}{"\n"}{end}'
kubectl get pods -l app=web --field-selector spec.nodeName=node-2
kubectl get pods -l 'app in (api, db)'
kubectl get pods -A
kubectl get pods --sort-by=.spec.nodeName --no-headers
kubectl get events --field-selector reason=Scheduled
kubectl get deployment web -o yaml
kubectl get node node-1 -o json
kubectl get pod nope # expect error
kubectl get widgets # expect error
kubectl get pods --bogus # expect error
kubectl get pods -o table # expect error
kubectl get pods --field-selector spec.color=blue # expect error
