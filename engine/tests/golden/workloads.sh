# Jobs, CronJobs and DaemonSets as kubectl shows them: the get columns of v1.33, describe,
# kubectl create job|cronjob with their generated objects and errors, an Indexed Job's
# completed indexes and TTL, a CronJob's runs, a Job from a CronJob, and a drain that
# must be told to ignore a DaemonSet's Pods.
kubectl create job pi --image=perl:5.34 --dry-run=client -o yaml -- perl -e 1
kubectl create job pi --image=perl:5.34 -- sh -c "sleep 3"
kubectl get jobs
sim advance 20s
kubectl get jobs -o wide
kubectl describe job pi
kubectl create job   # expect error
kubectl create job x   # expect error
kubectl create job x --image=busybox --restart=Never   # expect error
kubectl create job x --from=cronjob/nope   # expect error
kubectl apply -f bad-job.yaml   # expect error
kubectl apply -f indexed-job.yaml
sim advance 12s
kubectl get pods -l job-name=shards
kubectl get job shards -o jsonpath='{.status.completedIndexes} {.status.succeeded}{"\n"}'
sim advance 20s
kubectl describe job shards
sim advance 70s
kubectl get job shards   # expect error
kubectl create cronjob y   # expect error
kubectl create cronjob bad --image=busybox --schedule="61 * * * *"   # expect error
kubectl create cronjob tick --image=busybox:1.36 --schedule="*/2 * * * *" -o yaml --dry-run=client -- sh -c "date"
kubectl create cronjob tick --image=busybox:1.36 --schedule="*/2 * * * *" -- sh -c "sleep 5"
sim advance 5m
kubectl get cronjobs
kubectl get jobs -l job-name
kubectl describe cronjob tick
kubectl create job tick-now --from=cronjob/tick
kubectl get job tick-now -o jsonpath='{.metadata.annotations} {.metadata.ownerReferences[0].kind}{"\n"}'
kubectl apply -f daemonset.yaml
sim settle
kubectl get daemonsets
kubectl get ds -o wide
kubectl drain node-1   # expect error
kubectl drain node-1 --ignore-daemonsets --dry-run=client
kubectl describe ds log-agent
