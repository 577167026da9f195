# The verbs that change things, with kubectl's words for success and failure.
kubectl apply -f web.yaml
kubectl apply -f web.yaml
sim settle
kubectl scale deployment web --replicas=4
kubectl rollout status deployment/web
kubectl scale deploy/web # expect error
kubectl set image deployment/web nginx=nginx:1.28
kubectl rollout status deployment web
kubectl rollout history deployment/web
kubectl rollout undo deployment/web
kubectl rollout status deployment/web
kubectl rollout history deployment/web
kubectl rollout undo deployment/web --to-revision=9 # expect error
kubectl rollout pause deployment/web
kubectl rollout pause deployment/web # expect error
kubectl rollout undo deployment/web # expect error
kubectl rollout resume deployment/web
kubectl rollout restart deployment/web
kubectl rollout status deployment/web
kubectl label deployment web tier=frontend
kubectl label deployment web tier=backend # expect error
kubectl label deployment web tier=backend --overwrite
kubectl label deployment web tier-
kubectl annotate deployment web kubernetes.io/change-cause='manual edit'
kubectl patch deployment web -p '{"spec":{"replicas":2}}'
kubectl patch deployment web -p '{"spec":{"replicas":2}}'
sim settle
kubectl taint nodes node-3 dedicated=db:NoSchedule
kubectl taint nodes node-3 dedicated=db:NoSchedule # expect error
kubectl taint nodes node-3 dedicated:NoSchedule-
kubectl cordon node-1
kubectl cordon node-1
kubectl get nodes
kubectl uncordon node-1
kubectl drain node-2 --ignore-daemonsets
kubectl get pods -o wide
kubectl uncordon node-2
kubectl wait --for=condition=Available deployment/web --timeout=60s
kubectl wait --for=create deployment/web
kubectl wait --for=create deployment/api --timeout=5s # expect error
kubectl wait --for=create pods -l app=web --timeout=5s
kubectl wait --for=create pods -l app=none --timeout=5s # expect error
kubectl wait --for=condition=Ready pods -l app=none --timeout=5s # expect error
kubectl delete deployment web
kubectl get rs,pods
kubectl delete pod ghost # expect error
kubectl delete pods # expect error
# kubectl set resources: quantities printed as the API prints them, no output when
# nothing changes, and its refusals.
kubectl apply -f web.yaml
kubectl set resources deployment web --limits=cpu=200m,memory=512Mi --requests=cpu=0.1,memory=1024Mi
kubectl set resources deployment web --limits=cpu=200m,memory=512Mi --requests=cpu=0.1,memory=1024Mi
kubectl set resources deployment/web -c=ngi* --requests=cpu=250m --dry-run=client
kubectl get deployment web -o jsonpath={.spec.template.spec.containers[0].resources}
kubectl set resources deployment web -c foo --limits=cpu=1 # expect error
kubectl set resources deployment web # expect error
kubectl set resources deployment web --limits=cpu # expect error
kubectl set resources deployment web --limits=cpu=abc # expect error
kubectl set resources service kubernetes --limits=cpu=2 # expect error
kubectl set resources deployment nope --limits=cpu=2 # expect error
