# kubectl rollout on StatefulSets and DaemonSets: status as their status viewers print
# it, history from their ControllerRevisions with the change-cause the revision copied,
# undo (dry run, to the previous and to a missing revision), restart, and pause refused.
kubectl apply -f statefulset.yaml
sim settle
kubectl rollout status statefulset/web
kubectl rollout history statefulset/web
kubectl annotate statefulset web kubernetes.io/change-cause="image 1.28"
kubectl set image statefulset/web nginx=nginx:1.28
kubectl rollout status sts/web --watch=false
kubectl rollout status sts/web
kubectl rollout history statefulset/web
kubectl rollout history statefulset/web --revision=2
kubectl rollout undo statefulset/web --dry-run=client
kubectl rollout undo statefulset/web
kubectl rollout status sts/web
kubectl rollout history statefulset/web
kubectl rollout undo statefulset/web --to-revision=9   # expect error
kubectl rollout pause statefulset/web   # expect error
kubectl rollout restart statefulset/web
kubectl get controllerrevisions
kubectl apply -f daemonset.yaml
sim settle
kubectl get controllerrevisions
kubectl rollout history ds/log-agent
kubectl set image ds/log-agent agent=busybox:1.37
kubectl rollout status ds/log-agent
kubectl rollout history ds/log-agent
kubectl rollout undo ds/log-agent
kubectl rollout status ds/log-agent
kubectl rollout history ds/log-agent
kubectl get controllerrevisions -l app=log-agent
kubectl rollout resume ds/log-agent   # expect error
kubectl rollout history ds/log-agent --revision=7   # expect error
