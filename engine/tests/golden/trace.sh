# The why-trace: causes of a replacement Pod, a deleted Pod, a ReplicaSet, a Deployment, and an eviction.
sim reset --nodes 3 --dns=false
kubectl create deployment gateway --image=nginx:1.27 --replicas=3
sim settle
kubectl delete pod gateway-7948b44c66-kmcs7 --wait=false
sim settle
kubectl get pods -o name
sim trace pod/gateway-7948b44c66-x4jzh
sim trace pod/gateway-7948b44c66-kmcs7
sim trace rs/gateway-7948b44c66
sim trace deployment/gateway
sim node down node-1
sim advance 6m
kubectl get pods -o wide
sim trace pod/gateway-7948b44c66-v9qks
sim trace pod/gateway-7948b44c66-pprmw
sim trace node/node-1
sim trace pod/nope # expect error
sim trace frob/x # expect error
sim trace # expect error
# A back-off loop is told once with its count.
sim image-fail nginx:nope
kubectl set image deployment/gateway nginx=nginx:nope
sim advance 2m
kubectl get pods
sim trace pod/gateway-598c8fc7bb-mtkrf
