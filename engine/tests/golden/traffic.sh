# Traffic through the kube-proxies, the message API's business numbers, and kubectl logs.
sim image-warmup notes-api:1.1 5s
kubectl create deployment notes-api --image=notes-api:1.0 --port=80 --replicas=3
kubectl expose deployment notes-api --port=80
sim advance 1s
kubectl logs deploy/notes-api # expect error
kubectl get pods -o name
kubectl logs notes-api-5b587d678d-9cbl8 # expect error
sim settle
sim app service/notes-api
sim traffic service/notes-api --rps 10 --retries 1 --for 10m
sim advance 20s
kubectl logs notes-api-5b587d678d-9cbl8 --tail 3
kubectl logs deploy/notes-api --tail 2 --timestamps
kubectl set image deployment/notes-api notes-api=notes-api:1.1
sim advance 60s
kubectl get deployment notes-api
sim traffic --report
kubectl logs notes-api-5b587d678d-9cbl8 # expect error
sim traffic service/notes-api --stop
sim traffic service/nope --rps 5 # expect error
sim traffic service/notes-api --rps 0 # expect error
sim app service/notes-api --store service/db # expect error
