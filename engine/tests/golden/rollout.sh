# Rollout states and the change-cause workflow, in kubectl's words.
kubectl apply -f web.yaml
sim settle
kubectl annotate deployment web kubernetes.io/change-cause='first release'
sim settle
kubectl get rs -o 'jsonpath={range .items[*]}{.metadata.annotations}{"\n"}{end}'
kubectl set image deployment/web nginx=nginx:1.28
kubectl annotate deployment web kubernetes.io/change-cause='move to 1.28'
kubectl rollout status deployment/web
kubectl rollout history deployment/web
kubectl rollout history deployment/web --revision=1
kubectl rollout history deployment/web --revision=7 # expect error
kubectl rollout history deployment/web --revision=x # expect error
kubectl rollout pause deployment/web
kubectl rollout pause deployment/web # expect error
kubectl rollout undo deployment/web --to-revision=7 # expect error
kubectl rollout undo deployment/web # expect error
kubectl rollout restart deployment/web # expect error
kubectl rollout resume deployment/web
kubectl rollout resume deployment/web # expect error
kubectl rollout undo deployment/web
kubectl rollout status deployment/web
kubectl get deployment web -o 'jsonpath={.metadata.annotations}{"\n"}'
kubectl rollout history deployment/web
kubectl rollout undo deployment/web --to-revision=3
kubectl rollout undo deployment/web --to-revision=x # expect error
kubectl rollout undo deployment/web --to-revision=2 --dry-run=client
kubectl rollout history deployment/web
kubectl rollout restart deployment/web -o name
kubectl rollout restart deployment/web # expect error
sim advance 1s
kubectl rollout restart deployment/web -o jsonpath='{.kind} {.spec.template.metadata.annotations}{"\n"}'
kubectl rollout pause deployment/web -o bogus # expect error
kubectl get deployment web -o jsonpath='{.spec.paused}{"\n"}'
kubectl rollout resume deployment/web -o name
kubectl rollout status deployment/web -o name # expect error
