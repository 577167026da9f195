# Devices on long-lived connections to the course's gateway: the contract's answers,
# one device's evidence, a Pod deleted (its connections closed, then back), a node off
# (half-open connections noticed at a ping, connect timeouts).
sim reset --nodes 4
kubectl create deployment gateway --image=nginx --replicas=3
kubectl expose deployment gateway --port=80
sim settle
sim devices 200 service/gateway
sim advance 10s
sim devices --report
sim message service/gateway --id m-a --to device-1 --text hello
sim message service/gateway --id m-b --to device-1 --text 你好啊
sim message service/gateway --id m-c --to device-1 --text hi --as c
sim message service/gateway --id m-c --to device-404 --text hi
sim advance 1m
sim devices --report device-1
sim expect devices/gateway {.acknowledged} == 1
sim traffic service/gateway --rps 10 --for 5m
sim node down node-2
sim advance 2m
sim devices --report
sim expect devices/gateway {.connected} == 200
