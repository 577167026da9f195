//! English and Simplified Chinese for everything the UI itself says. kubectl output,
//! Kubernetes reasons and messages, object names and field names stay as Kubernetes
//! prints them (a learner searches for those words).
//!
//! Keys are the English strings; `{}` marks a value filled in by [`trf`].
//!
//! One convention, checked by a test: a Kubernetes **kind** ([`KINDS`]: Pod, Node,
//! Deployment…) is written in English in both languages, as kubectl prints it, and so
//! are condition types and event reasons (Ready, NotReady, FailedScheduling). Every
//! other UI word is translated, with the course texts' terms ([`TERMS`]).

/// A UI language.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    /// English.
    En,
    /// Simplified Chinese.
    Zh,
}

impl Lang {
    /// From a `lang` URL parameter or a browser language tag (`zh`, `zh-CN`, `en-US`…);
    /// None when it names neither language.
    pub fn from_tag(tag: &str) -> Option<Lang> {
        let t = tag.trim().to_ascii_lowercase();
        if t == "zh" || t.starts_with("zh-") || t.starts_with("zh_") {
            Some(Lang::Zh)
        } else if t == "en" || t.starts_with("en-") || t.starts_with("en_") {
            Some(Lang::En)
        } else {
            None
        }
    }

    /// The `lang` attribute value.
    pub fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Zh => "zh-CN",
        }
    }
}

#[cfg_attr(not(test), allow(dead_code))]
/// Kubernetes kinds: the same word in both languages (a capitalized kind in an
/// English string must appear in its Chinese too).
pub const KINDS: &[&str] = &[
    "Pod",
    "Node",
    "Deployment",
    "ReplicaSet",
    "Service",
    "EndpointSlice",
    "Job",
    "CronJob",
    "DaemonSet",
    "StatefulSet",
    "HorizontalPodAutoscaler",
    "PersistentVolumeClaim",
    "PersistentVolume",
    "ConfigMap",
    "Secret",
    "Namespace",
    "Lease",
    "PodDisruptionBudget",
    "ControllerRevision",
    "PriorityClass",
];

#[cfg_attr(not(test), allow(dead_code))]
/// The terminology table: the English UI word, its Chinese, and where it comes from.
/// Prose uses these; a kind named as a kind stays English (see [`KINDS`]).
pub const TERMS: &[(&str, &str, &str)] = &[
    ("desired state / spec", "期望状态", "course texts"),
    ("actual state / status", "实际状态", "course texts"),
    ("replica", "副本", "course texts"),
    ("ready (Pods, replicas)", "就绪", "course texts"),
    ("not ready", "未就绪", "course texts"),
    ("schedule / scheduler", "调度 / 调度器", "course texts"),
    ("node (the machine, in prose)", "节点", "course texts"),
    ("evict / eviction", "驱逐", "course texts"),
    ("taint / toleration", "污点 / 容忍", "course texts"),
    (
        "cordon / drain",
        "封锁（cordon） / 排空（drain）",
        "kubectl verbs kept beside the word",
    ),
    (
        "rolling update / roll back",
        "滚动更新 / 回滚",
        "course texts",
    ),
    ("controller", "控制器", "course texts"),
    ("control plane", "控制平面", "course texts"),
    ("inspector", "检查器", "this UI"),
    ("console", "控制台", "this UI"),
    ("timeline", "时间线", "this UI"),
    ("lesson", "课程场景", "this UI"),
    (
        "describe (the inspector tab)",
        "描述（describe）",
        "kubectl verb kept beside the word",
    ),
    (
        "feasible (a node that passes every filter)",
        "可行",
        "scheduler framework",
    ),
    ("heartbeat", "心跳", "node lifecycle"),
];

/// English → Simplified Chinese.
const ZH: &[(&str, &str)] = &[
    // Header and toolbar.
    ("Spec is what you want, status is what is. Watch the control plane close the gap.", "spec 是期望状态，status 是实际状态。看控制平面如何弥合两者的差距。"),
    ("Simulation controls", "模拟控制"),
    ("Simulated time", "模拟时间"),
    ("Play", "播放"),
    ("Pause", "暂停"),
    ("Step", "单步"),
    ("Run the next event", "执行下一个事件"),
    ("Speed", "速度"),
    ("Click a Pod to delete it · click a Node to power it off or on · −/+ to scale", "点击 Pod 删除它 · 点击 Node 关机或开机 · −/+ 扩缩副本"),
    ("Language", "语言"),
    ("Rewind", "回放"),
    ("Drag to go back in time and forward again (the engine replays from snapshots)", "拖动以回到过去或再前进（引擎从快照重放）"),
    ("Simulated time: drag to rewind or fast-forward", "模拟时间：拖动以回退或快进"),
    ("{} behind the latest", "比最新时刻晚 {}"),
    ("simulation slower than chosen", "模拟慢于所选速度"),
    ("Ready (darker: more Pods)", "就绪（颜色越深 Pod 越多）"),
    ("Ready", "就绪"),
    ("Showing {} of {} Deployments: those still rolling out first (kubectl rollout status and kubectl get reach every one).", "显示 {} 个 Deployment（共 {} 个）：仍在滚动更新的排在前面（kubectl rollout status 和 kubectl get 可查看全部）。"),
    ("… and {} more, all converged (kubectl get lists every one)", "……另有 {} 个，均已收敛（kubectl get 会列出全部）"),
    ("… and {} more, {} of them still converging (kubectl get lists every one)", "……另有 {} 个，其中 {} 个仍在收敛（kubectl get 会列出全部）"),
    ("{} nodes, {} not Ready: click a cell (or use the arrow keys and Enter) to inspect its node", "{} 个节点，{} 个未就绪：点击格子（或用方向键和回车）查看对应节点"),
    ("{}: {}, {} of {} Pods — Enter inspects it", "{}：{}，{}/{} 个 Pod —— 按回车查看"),
    ("Showing {} of {} nodes: the ones that need attention first. The heat map above has every node; click a cell to inspect it.", "显示 {} 个节点（共 {} 个）：需要关注的排在前面。上方的热力图包含所有节点，点击格子可查看详情。"),
    ("This cluster takes longer to simulate than the chosen speed allows; the page stays responsive and the clock runs slower", "这个集群的模拟计算跟不上所选速度：页面仍可操作，时钟走得慢一些"),
    ("A command after a rewind starts a new history: what came after that moment is gone", "回退后再执行命令会开始新的历史：那一刻之后的内容被丢弃"),
    ("history forked at {}", "历史在 {} 分叉"),
    // Chain.
    ("Deployment → ReplicaSet → Pod → Node", "Deployment → ReplicaSet → Pod → Node"),
    ("Deployment", "Deployment"),
    ("ReplicaSet", "ReplicaSet"),
    ("Deployment · CronJob", "Deployment · CronJob"),
    ("StatefulSet", "StatefulSet"),
    ("want {}", "期望 {}"),
    ("HorizontalPodAutoscaler: {} to {} replicas", "HorizontalPodAutoscaler：{} 到 {} 个副本"),
    ("claims {}", "声明 {}"),
    ("DaemonSet · one Pod per eligible node", "DaemonSet · 每个符合条件的节点一个 Pod"),
    ("nodes {}", "节点 {}"),
    ("up-to-date {}", "已更新 {}"),
    ("misscheduled {}", "错误调度 {}"),
    ("Job", "Job"),
    ("CronJob", "CronJob"),
    ("completions {}", "完成 {}"),
    ("active {}", "运行中 {}"),
    ("failed {} (limit {})", "失败 {}（上限 {}）"),
    ("last run {} ago", "上次运行于 {} 前"),
    ("not run yet", "尚未运行"),
    ("Pods", "Pod"),
    ("Nodes", "节点"),
    ("+ add node", "+ 添加节点"),
    ("SVG", "SVG"),
    ("PNG", "PNG"),
    ("Download the chain as a PNG picture (for slides)", "把这条链下载为 PNG 图片（可用于幻灯片）"),
    ("{} pod(s)", "{} 个 Pod"),
    ("Download the chain as an SVG picture (for slides)", "把这条链下载为 SVG 图片（可用于幻灯片）"),
    ("sim node add: register a new 4-CPU / 8Gi node", "sim node add：注册一个 4 CPU / 8Gi 的新节点"),
    ("wants {}", "期望 {}"),
    ("ready {}/{}", "就绪 {}/{}"),
    ("available {}", "可用 {}"),
    ("desired {}", "期望 {}"),
    ("current {}", "当前 {}"),
    ("ready {}", "就绪 {}"),
    ("revision {}", "版本 {}"),
    ("restarts {}", "重启 {}"),
    ("node {}", "节点 {}"),
    ("Replaced by {} (uid {}): a new Pod, not this one restarted", "已被 {}（uid {}）替代：这是一个新的 Pod，而不是原 Pod 重启"),
    ("replaced by {}", "替代者 {}"),
    ("1 pod", "1 个 Pod"),
    ("{} pods", "{} 个 Pod"),
    ("power off", "已关机"),
    ("not Ready", "未就绪"),
    ("Scale down Deployment {}", "缩容 Deployment {}"),
    ("Scale up Deployment {}", "扩容 Deployment {}"),
    ("Delete Pod {}", "删除 Pod {}"),
    ("Power off Node {}", "关闭 Node {}"),
    ("Power on Node {}", "开启 Node {}"),
    ("{} Pods: the chain shows counts; click a node cell to inspect it", "共 {} 个 Pod：链路图只显示数量；点击节点格子可查看详情"),
    ("{} ready", "{} 就绪"),
    ("{} starting", "{} 启动中"),
    ("{} pending", "{} 待调度"),
    ("{} terminating", "{} 终止中"),
    ("{} Pods", "{} 个 Pod"),
    // Inspector.
    ("Inspector", "检查器"),
    ("Inspector views", "检查器视图"),
    ("Close the inspector", "关闭检查器"),
    ("Path", "路径"),
    ("Overview", "概览"),
    ("YAML", "YAML"),
    ("Describe", "描述（describe）"),
    ("It no longer exists.", "它已不存在。"),
    ("Pod {} no longer exists.", "Pod {} 已不存在。"),
    ("Node {} no longer exists.", "Node {} 已不存在。"),
    ("created", "创建"),
    ("scheduled", "调度"),
    ("image pulled", "拉取镜像"),
    ("started", "启动容器"),
    ("ready", "就绪"),
    ("terminating", "终止中"),
    ("done", "完成"),
    ("in progress", "进行中"),
    ("stuck", "卡住"),
    ("not reached", "未到达"),
    ("Stuck at: {}", "卡在：{}"),
    ("At: {}", "当前：{}"),
    ("Last scheduling attempt, node by node", "最近一次调度尝试（逐个节点）"),
    ("NODE", "节点"),
    ("FILTERS", "过滤"),
    ("SCORE", "打分"),
    ("{} (chosen)", "{}（选中）"),
    ("feasible", "可行"),
    ("evicted in {}s", "{} 秒后驱逐"),
    ("The taint-eviction controller deletes it in {}s (tolerationSeconds)", "taint-eviction 控制器将在 {} 秒后删除它（tolerationSeconds）"),
    ("Delete", "删除"),
    ("Kill container", "杀死容器"),
    ("Make unready", "使其未就绪"),
    ("Make ready", "使其就绪"),
    ("Hang", "挂起"),
    ("OOM", "内存溢出 (OOM)"),
    ("Cordon", "封锁（cordon）"),
    ("Uncordon", "解除封锁"),
    ("Drain", "排空（drain）"),
    ("Power off", "关机"),
    ("Power on", "开机"),
    ("Reconnect", "恢复网络"),
    ("Partition", "断网（partition）"),
    ("Node conditions", "Node 状况（conditions）"),
    ("TYPE", "类型"),
    ("STATUS", "状态"),
    ("REASON", "原因"),
    ("MESSAGE", "消息"),
    ("Taints: {}", "污点：{}"),
    ("Taints: <none>", "污点：<none>"),
    ("Node {}", "Node {}"),
    (" · partitioned", " · 已断网"),
    (" · powered off", " · 已关机"),
    // Timeline.
    ("Timeline", "时间线"),
    ("Go back to: {}", "回到：{}"),
    // Node board.
    ("Node board", "Node 看板"),
    (" — each node's Pods, requests against allocatable, and what the node lifecycle controller sees", " —— 每个节点上的 Pod、资源请求与可分配量，以及节点生命周期控制器看到的情况"),
    ("Open in the inspector", "在检查器中打开"),
    ("cordoned", "已封锁"),
    ("SchedulingDisabled: new Pods are not placed here", "SchedulingDisabled：新的 Pod 不会调度到这里"),
    ("powered off", "已关机"),
    ("the kubelet is down: no heartbeats", "kubelet 已停止：没有心跳"),
    ("partitioned", "已断网"),
    ("the kubelet runs but cannot reach the API server", "kubelet 仍在运行，但连不上 API server"),
    ("no Pods", "没有 Pod"),
    ("Disks", "磁盘"),
    ("DaemonSet {} runs one Pod on every eligible node: this one stays through NotReady and a drain without --ignore-daemonsets refuses it", "DaemonSet {} 在每个符合条件的节点上运行一个 Pod：节点 NotReady 时它不被驱逐，不带 --ignore-daemonsets 的 drain 会拒绝执行"),
    ("PersistentVolume {} bound to claim {}, mounted by Pod {}", "PersistentVolume {} 已绑定到申领 {}，由 Pod {} 挂载"),
    ("claim {} is not bound to a volume yet: Pod {} waits for it", "申领 {} 尚未绑定卷：Pod {} 在等待它"),
    ("NoExecute taint: the taint-eviction controller deletes the Pod when its tolerationSeconds run out", "NoExecute 污点：容忍时间（tolerationSeconds）用完后，taint-eviction 控制器删除该 Pod"),
    // Deployment panel.
    ("Deployment {}", "Deployment {}"),
    ("image", "镜像"),
    ("Set image", "更新镜像"),
    ("Roll out a broken image", "发布一个坏镜像"),
    ("revision", "版本"),
    ("Roll back", "回滚"),
    ("Resume", "恢复"),
    ("Restart", "重启"),
    ("previous", "上一个"),
    ("REVISION", "版本"),
    ("REPLICASET", "REPLICASET"),
    ("IMAGES", "镜像"),
    ("READY/DESIRED", "就绪/期望"),
    ("CHANGE-CAUSE", "变更原因"),
    ("{} (current)", "{}（当前）"),
    ("Deployments: rollouts and history", "Deployment：发布与历史"),
    ("Σ ReplicaSet replicas against replicas + maxSurge; unavailable against maxUnavailable", "各 ReplicaSet 副本数之和对比 replicas + maxSurge；不可用数对比 maxUnavailable"),
    ("pods {}/{} (max {} with surge {}) · unavailable {}/{}", "Pod {}/{}（最多 {}，含 surge {}）· 不可用 {}/{}"),
    ("New image for Deployment {}", "Deployment {} 的新镜像"),
    ("The registry refuses this image: the rollout gets stuck", "镜像仓库拒绝这个镜像：发布会卡住"),
    ("Revision to roll Deployment {} back to", "Deployment {} 要回滚到的版本"),
    ("Revision history of Deployment {}", "Deployment {} 的版本历史"),
    // Console.
    ("Console", "控制台"),
    (" — kubectl and sim commands; clicks appear here too", " —— kubectl 与 sim 命令；点击操作也会显示在这里"),
    ("kubectl get pods -o wide   (Tab completes, ↑/↓ history, Shift+Enter for a new line)", "kubectl get pods -o wide   （Tab 补全，↑/↓ 历史，Shift+Enter 换行）"),
    ("Command (kubectl or sim)", "命令（kubectl 或 sim）"),
    ("a command is still waiting for the cluster — press Play, or Esc / Ctrl+C to stop it", "还有一条命令在等待集群 —— 请按播放，或按 Esc / Ctrl+C 停止它"),
    ("running the clock: {} of at most {}… (Esc or Ctrl+C stops it)", "时钟快进中：{}，最多到 {}……（Esc 或 Ctrl+C 停止）"),
    ("waiting for the cluster… (Esc or Ctrl+C stops it)", "正在等待集群……（Esc 或 Ctrl+C 停止）"),
    ("waiting for the cluster — the clock is paused: press Play (Esc or Ctrl+C stops it)", "正在等待集群 —— 时钟已暂停：请按播放（Esc 或 Ctrl+C 停止）"),
    // Events.
    ("Events", "事件"),
    (" — who did what (newest first)", " —— 谁做了什么（最新的在前）"),
    ("TIME", "时间"),
    ("COMPONENT", "组件"),
    ("OBJECT", "对象"),
    // Lessons.
    ("Lesson", "课程场景"),
    ("Choose a lesson", "选择一个课程场景"),
    ("Playground (no lesson)", "自由练习（不选场景）"),
    ("Your own scenario", "你自己的场景"),
    ("Put this whole session in a link: opening it reproduces the same state", "把整个会话放进一个链接：打开它就能重现同样的状态"),
    ("Share", "分享"),
    ("Link to this session", "这个会话的链接"),
    ("Steps", "步骤"),
    ("Run", "运行"),
    ("Goals: {} of {} reached", "目标：已达成 {}/{}"),
    ("(reached)", "（已达成）"),
    ("(not yet)", "（尚未达成）"),
    ("Write your own scenario (YAML)", "编写你自己的场景（YAML）"),
    ("Scenario YAML", "场景 YAML"),
    ("Check and load", "检查并加载"),
    // Why-trace.
    ("Why", "原因链"),
    ("Why {} {} is as it is", "{} {} 为什么是现在这样"),
    (" — the chain of causes, read from the watch log and Events", " —— 因果链，来自 watch 日志与事件"),
    ("now", "现在"),
    ("times it happened", "发生的次数"),
    // Pod path evidence (view.rs).
    ("{}", "{}"),
    ("{}: {}", "{}：{}"),
    ("created at {} by {} {}, uid {}", "{} 由 {} {} 创建，uid {}"),
    ("created at {} by kubectl, uid {}", "{} 由 kubectl 创建，uid {}"),
    ("bound to {}", "已绑定到 {}"),
    ("FailedScheduling: {}", "FailedScheduling（调度失败）：{}"),
    ("nominated to {}: lower-priority Pods there are being preempted (Preempted events)", "已提名到 {}：那里优先级更低的 Pod 正在被抢占（见 Preempted 事件）"),
    ("waiting in the scheduling queue", "在调度队列中等待"),
    ("init containers first: {}", "先运行 Init 容器：{}"),
    ("init container {} ({}): terminated: {} (exit code {})", "Init 容器 {}（{}）：已终止：{}（退出码 {}）"),
    ("init container {} ({}): running", "Init 容器 {}（{}）：运行中"),
    ("init container {} ({}): waiting: {}", "Init 容器 {}（{}）：等待中：{}"),
    ("init container {} ({}): waiting: {}: {}", "Init 容器 {}（{}）：等待中：{}：{}"),
    ("init container {} ({})", "Init 容器 {}（{}）"),
    ("container {} terminated: {} (exit code {})", "容器 {} 已终止：{}（退出码 {}）"),
    ("restarts: {}", "重启次数：{}"),
    ("container {} running; its startup probe has not passed yet", "容器 {} 在运行，但启动探针（startupProbe）尚未通过"),
    ("restarts: {} (same Pod, same uid)", "重启次数：{}（同一个 Pod，同一个 uid）"),
    ("Ready since {}", "自 {} 起就绪"),
    ("node {} is NotReady: the node controller marked the Pod not Ready", "节点 {} 处于 NotReady：节点控制器把 Pod 标记为未就绪"),
    ("Ready=False: {}", "Ready=False：{}"),
    ("deletionTimestamp {}", "deletionTimestamp {}"),
    // Why-trace steps (engine/src/trace.rs TEMPLATES).
    ("saw {} of {} Pods for ReplicaSet {} and created Pod {}", "看到 {}/{} 个 Pod（ReplicaSet {}），于是创建了 Pod {}"),
    ("Pod {} (uid {}) finished: phase {}", "Pod {}（uid {}）已结束：phase {}"),
    ("evicted Pod {} (uid {}): its node is tainted NoExecute", "驱逐了 Pod {}（uid {}）：它所在的节点有 NoExecute 污点"),
    ("preempted Pod {} (uid {}) to make room", "抢占了 Pod {}（uid {}）以腾出资源"),
    ("deleted Pod {} (uid {}): its node is gone", "删除了 Pod {}（uid {}）：它所在的节点已不存在"),
    ("deleted Pod {} (uid {})", "删除了 Pod {}（uid {}）"),
    ("tainted node {}: {}", "给节点 {} 加上污点：{}"),
    ("marked node {} Ready={}: its kubelet stopped posting status", "把节点 {} 标记为 Ready={}：它的 kubelet 不再上报状态"),
    ("created ReplicaSet {} ({})", "创建了 ReplicaSet {}（{}）"),
    ("scaled ReplicaSet {}: {}", "扩缩了 ReplicaSet {}：{}"),
    ("created {} {} ({})", "创建了 {} {}（{}）"),
    ("changed {} {}: {}", "修改了 {} {}：{}"),
    ("created {} {}", "创建了 {} {}"),
    ("removed {} {} from the API server", "从 API Server 中移除了 {} {}"),
    ("filtered {} nodes ({} feasible) and bound it to {} (score {})", "过滤了 {} 个节点（{} 个可行），把它绑定到 {}（得分 {}）"),
    ("bound it to {}", "把它绑定到 {}"),
    ("readiness passed: Ready ({})", "就绪探测通过：Ready（{}）"),
    ("deleted it (graceful: {})", "删除了它（优雅终止：{}）"),
    ("ReplicaSet {} counts it: ready {}/{}", "ReplicaSet {} 把它计入：就绪 {}/{}"),
    // Opening links: bounds, refusals and the replay of a shared session.
    ("allowOrigins=* is ignored: add unsafeAnyOrigin=1 to obey commands from any page (unsafe for graded lessons)", "已忽略 allowOrigins=*：如需执行任意页面发来的命令，请再加上 unsafeAnyOrigin=1（对计分的课程不安全）"),
    ("error: the scenario link is damaged", "错误：课程链接已损坏"),
    ("error: the share link is damaged (it does not decompress)", "错误：分享链接已损坏（无法解压）"),
    ("error: the share link is damaged: {}", "错误：分享链接已损坏：{}"),
    ("error: the share link's time (now = {}) is not a whole number of milliseconds from 0 to {} (a week)", "错误：分享链接的时间（now = {}）不是 0 到 {}（一周）之间的整数毫秒"),
    ("error: the share link holds {} recorded actions (at most {})", "错误：分享链接包含 {} 个记录的操作（最多 {} 个）"),
    ("error: the share link is version {}; this page reads version 1", "错误：分享链接的版本是 {}；本页面只能读取版本 1"),
    ("error: the share link is damaged (its times do not add up)", "错误：分享链接已损坏（其中的时间对不上）"),
    ("error: the share link's commands ask for {} of simulated time in all (at most {})", "错误：分享链接中的命令一共要求 {} 的模拟时间（最多 {}）"),
    ("error: the link is too long to open: {} characters (at most {})", "错误：链接太长，无法打开：{} 个字符（最多 {} 个）"),
    ("error: a command is too long: {} characters (at most {})", "错误：命令太长：{} 个字符（最多 {} 个）"),
    ("error: a command asks for {} of simulated time in one piece (at most {}): {}", "错误：一条命令一次要求 {} 的模拟时间（最多 {}）：{}"),
    ("error: the scenario is too long: {} characters (at most {})", "错误：场景太长：{} 个字符（最多 {} 个）"),
    ("error: the scenario's setup asks for {} of simulated time (at most {})", "错误：场景的 setup 要求 {} 的模拟时间（最多 {}）"),
    ("Replay stopped at {} of {}: {} of {} recorded actions replayed, the rest dropped.", "回放停在 {}（目标 {}）：已回放 {} 个记录的操作（共 {} 个），其余的已丢弃。"),
    ("Replaying the shared session: {} of {}", "正在回放分享的会话：{} / {}"),
    ("Replay progress", "回放进度"),
    ("{} of {} recorded actions", "已回放 {} / {} 个记录的操作"),
    ("Stop replay", "停止回放"),
    ("Services: platform health and user outcome", "Service：平台健康与用户结果"),
    ("No Service in front of:", "这些 Deployment 前面还没有 Service："),
    ("Expose {}", "为 {} 创建 Service"),
    ("deployment/{}: Ready {}/{}", "deployment/{}：就绪 {}/{}"),
    ("No Deployment selected", "没有选中任何 Deployment"),
    ("Endpoints: {} ready, {} not ready, {} terminating", "端点：{} 个就绪，{} 个未就绪，{} 个正在终止"),
    ("Platform health", "平台健康"),
    ("What users met (last 10 s)", "用户遇到了什么（最近 10 秒）"),
    ("No requests.", "没有请求。"),
    ("{} requests, {} answered, {} failed", "{} 个请求，{} 个得到应答，{} 个失败"),
    ("answered", "得到应答"),
    ("no endpoints", "没有端点"),
    ("refused", "连接被拒绝"),
    ("timed out", "超时"),
    ("reset", "连接被重置"),
    ("{} requests/s", "每秒 {} 个请求"),
    ("Stop traffic", "停止流量"),
    ("Send 20 requests/s", "每秒发送 20 个请求"),
    ("User outcome", "用户结果"),
    ("Business outcome", "业务结果"),
    ("Messages kept in: {}", "消息保存在：{}"),
    ("accepted", "已接受"),
    ("accepted twice", "被接受两次"),
    ("lost", "已丢失"),
    ("The application is not modelled.", "没有模拟这个应用。"),
    ("Run the message API (state in memory)", "运行消息 API（状态在内存中）"),
    ("Service", "Service"),
    ("no traffic", "没有流量"),
    ("… and {} more Services (kubectl get svc lists every one)", "……还有 {} 个 Service（kubectl get svc 会全部列出）"),
    ("The API server is down (since {})", "API Server 已停止（从 {} 起）"),
    ("Nothing is written: kubectl is refused, the controllers and the scheduler wait, the kubelets cannot report. Running containers and every kube-proxy's last rules keep serving.", "什么都写不进去：kubectl 被拒绝连接，控制器和调度器在等待，kubelet 无法上报。正在运行的容器和每个 kube-proxy 最后的规则仍在提供服务。"),
    ("Start the API server", "启动 API Server"),
    ("Stop the API server", "停止 API Server"),
    ("Request path", "请求路径"),
    (" — each kubectl request through the API server's stages", " —— 每个 kubectl 请求在 API Server 各阶段的经过"),
    ("kubectl acts as", "kubectl 的身份"),
    ("request/{}: {} as {}", "request/{}：{}，身份 {}"),
    ("No request yet: run a kubectl command or click a button.", "还没有请求：运行一条 kubectl 命令或点击一个按钮。"),
    ("authentication", "认证"),
    ("authorization", "鉴权"),
    ("mutating admission", "变更准入"),
    ("validation", "校验"),
    ("validating admission", "验证准入"),
    ("storage (etcd)", "存储（etcd）"),
    ("passed", "通过"),
    ("refused here", "在此被拒绝"),
    ("skipped", "跳过"),
    ("{}: up, the Raft leader. Click to stop it.", "{}：运行中，是 Raft 领导者。点击停止它。"),
    ("{}: up. Click to stop it.", "{}：运行中。点击停止它。"),
    ("{}: down. Click to start it.", "{}：已停止。点击启动它。"),
    ("sim etcd members {}: quorum {}, tolerates {} failed", "sim etcd members {}：多数派 {}，可容忍 {} 个故障"),
    ("{} leads: it holds the Lease kube-system/{}. Click to kill it.", "{} 是领导者：它持有 Lease kube-system/{}。点击杀掉它。"),
    ("no leader for {}", "已无领导者 {}"),
    ("No replica holds the Lease: its controllers are idle until a standby sees it unrenewed for 15 s and acquires it.", "没有副本持有 Lease：它的控制器处于空闲状态，直到某个待命副本看到它 15 秒未续约并获得它。"),
    ("How many replicas of kube-controller-manager and kube-scheduler", "kube-controller-manager 和 kube-scheduler 的副本数"),
    ("replicas", "副本"),
    ("Informers and work queues", "Informer 与工作队列"),
    (" — changes flow in through each controller's watch, reconciles drain its queue", " —— 变化经由每个控制器的 Watch 流入，调谐把它的队列排空"),
    ("controller", "控制器"),
    ("watch", "Watch"),
    ("queue", "队列"),
    ("syncs", "调谐次数"),
    ("retries", "重试"),
    ("last key synced", "最近调谐的键"),
    ("broken since {} · {} missed", "自 {} 起断开 · 错过 {} 个事件"),
    ("watching from rv {}", "从 rv {} 开始 Watch"),
    ("requeues after a failed reconcile (per-key back-off 5 ms doubling to 1000 s, and 10 per second overall) · keys backing off now", "调谐失败后的重新入队次数（每个键从 5 毫秒起翻倍退避到 1000 秒，整体每秒最多 10 次）· 当前正在退避的键数"),
    ("Break its watch for 30 s; it resumes from its resourceVersion and is sent what it missed", "断开它的 Watch 30 秒；之后从它的 resourceVersion 继续，并收到错过的事件"),
    ("Break its watch for 30 s, its resourceVersion compacted meanwhile: 410 Gone, it relists", "断开它的 Watch 30 秒，期间它的 resourceVersion 被压缩：410 Gone，它重新 List"),
    ("break watch", "断开 Watch"),
    ("sim leader replicas {}", "sim leader replicas {}"),
    ("{}: up, behind the load balancer. Click to stop it: its host's controller manager and scheduler lose the API.", "{}：运行中，位于负载均衡器之后。点击停止它：同一主机上的 controller manager 和 scheduler 将无法访问 API。"),
    ("sim apiserver replicas {}", "sim apiserver replicas {}"),
    ("{} of {} up · quorum {}", "{}/{} 运行 · 多数派 {}"),
    ("How many etcd members", "etcd 成员数"),
    ("members", "成员"),
    ("etcd has lost its quorum for {}: {} of {} members up, {} needed", "etcd 已失去多数派（{}）：{}/{} 个成员运行，需要 {} 个"),
    ("The API server answers, but every write and every consistent read times out (etcdserver: request timed out): nothing changes, the kubelets cannot report, their Leases go stale. Running containers keep serving. Start a member to regain the quorum.", "API Server 仍然应答，但每一次写入和每一次一致性读取都会超时（etcdserver: request timed out）：什么都改变不了，kubelet 无法上报，它们的 Lease 逐渐过期。正在运行的容器继续服务。启动一个成员即可恢复多数派。"),
    ("sim apiserver down: the control plane stops answering; the data plane keeps serving", "sim apiserver down：控制平面停止应答；数据平面继续服务"),
    ("Keep messages in the database behind service/{}", "把消息保存在 service/{} 背后的数据库里"),
    ("For a database: create and expose a Deployment for it, then choose it here.", "要用数据库：先为它创建一个 Deployment 并暴露成 Service，再在这里选择它。"),
    ("Keep messages in each Pod's memory", "把消息保存在每个 Pod 的内存里"),
    ("{} not ready", "{} 未就绪"),
    ("{} req/s", "每秒 {} 个请求"),
    ("last {} s: {} answered, {} failed", "最近 {} 秒：{} 个得到应答，{} 个失败"),
    ("{} failed · {} answered in the last {} s", "{} 个失败 · {} 个得到应答（最近 {} 秒）"),
    ("endpoints {} ready · {} not ready · {} terminating", "端点 {} 就绪 · {} 未就绪 · {} 终止中"),
    // The workbench: skip links, the dock, the console's keys, the screen reader.
    ("Skip links", "跳转链接"),
    ("Skip to the cluster", "跳到集群视图"),
    ("Skip to the console", "跳到控制台"),
    ("Console, inspector and lesson", "控制台、检查器与课程"),
    ("Node", "Node"),
    ("replaced by {} (uid {})", "替代者 {}（uid {}）"),
    ("Tab now leaves the console", "现在按 Tab 将离开控制台"),
    ("Tab completes · Esc then Tab leaves the console · Ctrl+C stops a waiting command", "Tab 补全 · 先按 Esc 再按 Tab 离开控制台 · Ctrl+C 停止等待中的命令"),
    ("Cluster changes", "集群变化"),
    ("Slow motion after an action: for a few seconds after you change something, the clock plays at 0.3× (when you watch at 1× or slower) so each step of the reconcile can be seen", "操作后慢放：你改动集群后的几秒内，时钟以 0.3× 运行（在 1× 或更慢时），调谐的每一步都看得见"),
    ("Slow motion", "慢放"),
    ("slow motion: watching your change", "慢放中：观察你的改动"),
    ("Step → {}: {}", "单步 → {}：{}"),
    ("only the clock moved (a heartbeat or a timer)", "只有时钟前进（心跳或定时器）"),
    (" (+{} more)", "（另有 {} 项）"),
    ("NotReady in {} s · no heartbeat", "{} 秒后 NotReady · 无心跳"),
    ("no heartbeat for {} s (NotReady at {} s): NotReady in {} s", "已 {} 秒无心跳（第 {} 秒变为 NotReady）：还剩 {} 秒"),
    ("no heartbeat for {} s", "已 {} 秒无心跳"),
    ("The node lifecycle controller marks a node NotReady when it has not heard a heartbeat (a Lease renewal or a status update) for node-monitor-grace-period, 50 s, at its next 5 s check", "节点生命周期控制器在 node-monitor-grace-period（50 秒）内没有收到心跳（Lease 续约或状态更新）时，会在下一次 5 秒检查时把节点标记为 NotReady"),
    (" — every write to the API server, one lane per component; click a mark to go to that moment (Home: the start, End: live)", " —— 对 API server 的每一次写入，每个组件一条泳道；点击标记可跳到那一刻（Home：开头，End：最新）"),
    ("Timeline window", "时间线窗口"),
    ("Whole history", "全部历史"),
    ("Zoom out", "缩小"),
    ("Zoom in", "放大"),
    ("Earlier", "更早"),
    ("Later", "更晚"),
    ("showing the newest writes of this window: zoom in for the rest", "只显示此窗口中最新的写入：放大可看其余部分"),
    ("Legend", "图例"),
    ("changed", "修改"),
    ("deleted", "删除"),
    ("Event", "Event"),
    ("several writes (hover or focus to list them)", "多次写入（悬停或聚焦以列出）"),
    ("after now (rewound: click to go forward)", "此刻之后（已回放：点击可前进）"),
    ("Hide {} quiet lanes", "隐藏 {} 条无写入的泳道"),
    ("{} quiet lanes (no writes in this window)", "{} 条无写入的泳道（此窗口内没有写入）"),
    ("Go forward to: {}", "前进到：{}"),
    ("{} writes from {}: go to the first", "{} 次写入，始于 {}：跳到第一次"),
    ("and {} more: zoom in", "还有 {} 次：请放大"),
    ("{} · {} · Pods {}/{} · cpu {}%", "{} · {} · Pod {}/{} · cpu {}%"),
    ("{} requests {} of {} allocatable", "{} 资源请求 {}，可分配 {}"),
    ("EndpointSlice endpoints: conditions.ready / not ready / conditions.terminating", "EndpointSlice 端点：conditions.ready / 未就绪 / conditions.terminating"),
    ("taints {}", "污点 {}"),
    ("Inspect {} {}", "检查 {} {}"),
    ("What happened: {} (at {})", "实际发生：{}（{}）"),
    ("What happened: still watching…", "实际发生：仍在观察……"),
    ("Its point takes time: {} of simulated time left", "这一步要等一段时间才见分晓：还剩 {} 模拟时间"),
    ("Speed up", "加快时钟"),
    ("✓ as predicted", "✓ 与预测一致"),
    ("✗ not as predicted", "✗ 与预测不同"),
    ("Your prediction: {}", "你的预测：{}"),
    ("Evidence (Events since the step): {}", "证据（这一步之后的 Event）：{}"),
    ("Your answer (a number)", "你的答案（一个数字）"),
    ("Predict, then run", "先预测，再运行"),
    ("Write this session as a lesson", "把这次会话写成课程"),
    ("What if", "如果……会怎样"),
    (" — fork the session here, change one thing, and play both on one clock", " —— 从这里分叉出第二个分支，只改一处，两个分支在同一个时钟下运行"),
    ("The one change (a command)", "唯一的改动（一条命令）"),
    ("Fork and compare", "分叉并比较"),
    (" — forked at {}; what you do now is done in both", " —— 在 {} 分叉；你现在做的操作会在两个分支中同时执行"),
    ("Close the comparison", "关闭比较"),
    ("First difference at {}:", "首次出现差异于 {}："),
    ("as is", "原样"),
    ("what if", "改动后"),
    ("No difference yet: the two branches look the same.", "还没有差异：两个分支看起来一样。"),
    ("As is", "原样"),
    ("Line by line", "逐行对比"),
    ("Import a cluster · export", "导入集群 · 导出"),
    ("Nothing leaves this page: the files are read here, in your browser, and sent nowhere.", "什么都不会离开这个页面：文件只在你的浏览器里读取，不会发送到任何地方。"),
    ("Drop the output of kubectl get nodes,namespaces,deployments,replicasets,pods,services,daemonsets,statefulsets,jobs,cronjobs,pdb,priorityclasses -A -o json (or -o yaml, or manifests) here, or choose files", "把 kubectl get nodes,namespaces,deployments,replicasets,pods,services,daemonsets,statefulsets,jobs,cronjobs,pdb,priorityclasses -A -o json（或 -o yaml，或清单文件）的输出拖到这里，或者选择文件"),
    ("Choose files to import", "选择要导入的文件"),
    ("An imported cluster: a share link cannot carry it (it would leave the page). Download the snapshot instead.", "这是导入的集群：分享链接无法携带它（那样它就离开了页面）。请改为下载快照。"),
    ("The objects as clean manifests kubectl apply accepts on a real cluster (status, uid, resourceVersion and controller-made objects left out)", "把对象导出为真实集群上 kubectl apply 可以接受的干净清单（去掉 status、uid、resourceVersion 和由控制器创建的对象）"),
    ("Download manifests (YAML)", "下载清单（YAML）"),
    ("The whole world with its status, as kubectl get -o json prints it: import it again here or with kubeplay-cli", "整个集群连同 status，格式与 kubectl get -o json 的输出相同：可以在这里或用 kubeplay-cli 再次导入"),
    ("Download snapshot (JSON)", "下载快照（JSON）"),
    ("This session as a script: kubeplay-cli run FILE plays it again", "把这次会话导出为脚本：kubeplay-cli run FILE 可以重放它"),
    ("Download session as a script", "把会话下载为脚本"),
    ("{}: {} wanted, {} updated, {} ready, {} available", "{}：期望 {}，已更新 {}，就绪 {}，可用 {}"),
    ("{}: {} wanted, {} ready", "{}：期望 {}，就绪 {}"),
    ("{}: {}, {} Pods ({} ready, {} terminating)", "{}：{}，{} 个 Pod（就绪 {}，终止中 {}）"),
    ("Pods on no node: {}", "未调度到任何节点的 Pod：{}"),
    ("What if: Deployment → ReplicaSet → Pod → Node", "改动后：Deployment → ReplicaSet → Pod → Node"),
    ("Timeline: what if", "时间线：改动后"),
    (" — the second branch's writes on the same clock (the page's timeline goes to a moment)", " —— 第二个分支在同一个时钟下的写入（跳到某一时刻请用上面的时间线）"),
    ("First difference at {}", "首次出现差异于 {}"),
    ("differs", "差异"),
    ("Write what you did in this session as a lesson: its cluster, your commands as steps, goals from what changed. Then edit it here.", "把你在这次会话中做的事写成一个课程：它的集群、你的命令作为步骤、根据变化给出的目标。然后在这里编辑。"),
    ("{} Ready", "{} Ready"),
    ("{} NotReady", "{} NotReady"),
    ("{} {}/{} ready", "{} 就绪 {}/{}"),
    ("{} of {} nodes Ready", "Ready 的节点：{}/{}"),
    ("{} of {} Deployments fully ready", "全部就绪的 Deployment：{}/{}"),
];

/// The text for `en` in `lang` (English when no translation exists).
pub fn t(lang: Lang, en: &'static str) -> &'static str {
    match lang {
        Lang::En => en,
        Lang::Zh => ZH
            .iter()
            .find(|(k, _)| *k == en)
            .map(|(_, v)| *v)
            .unwrap_or(en),
    }
}

/// [`t`] with each `{}` replaced by the next argument.
pub fn trf(lang: Lang, en: &'static str, args: &[&dyn std::fmt::Display]) -> String {
    let mut out = String::new();
    let mut args = args.iter();
    let mut rest = t(lang, en);
    while let Some(i) = rest.find("{}") {
        out.push_str(&rest[..i]);
        if let Some(a) = args.next() {
            out.push_str(&a.to_string());
        }
        rest = &rest[i + 2..];
    }
    out.push_str(rest);
    out
}

/// A sentence the page says, kept as its English template and values so it is put
/// into the learner's language when drawn (view models are built once, shown in either):
/// the engine's read models speak in these.
pub use kubeplay_engine::explain::Phrase as Said;

/// A [`Said`] in the learner's language.
pub trait InLang {
    /// In `lang`.
    fn in_lang(&self, lang: Lang) -> String;
}

impl InLang for Said {
    fn in_lang(&self, lang: Lang) -> String {
        Said::fill(t(lang, self.template), &self.args)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every `t(lang, "…")` / `trf(lang, "…"` key in the components, found by scanning
    /// their source.
    fn keys_in_source() -> Vec<String> {
        let sources = [
            include_str!("components/app.rs"),
            include_str!("sim/share.rs"),
            include_str!("sim/replay.rs"),
            include_str!("../engine/src/bounds.rs"),
            include_str!("components/chain.rs"),
            include_str!("components/console.rs"),
            include_str!("components/deployments.rs"),
            include_str!("components/events.rs"),
            include_str!("components/inspector.rs"),
            include_str!("components/lesson.rs"),
            include_str!("components/nodeboard.rs"),
            include_str!("components/toolbar.rs"),
            include_str!("components/timeline.rs"),
            include_str!("components/announcer.rs"),
            include_str!("components/services.rs"),
            include_str!("components/compare.rs"),
            include_str!("components/import.rs"),
            include_str!("components/requests.rs"),
            include_str!("components/queues.rs"),
            include_str!("view/mod.rs"),
            include_str!("view/aggregate.rs"),
            include_str!("view/chain.rs"),
            include_str!("view/deployments.rs"),
            include_str!("view/events.rs"),
            include_str!("view/node.rs"),
            include_str!("view/timeline.rs"),
        ];
        let mut keys = Vec::new();
        // rustfmt breaks a long call over lines (`trf(\n    lang,\n    "…"`): read it
        // as one line.
        let joined: Vec<String> = sources.iter().map(|s| join_calls(s)).collect();
        for src in joined.iter().map(String::as_str) {
            for marker in ["t(lang, \"", "trf(lang, \"", "said(\n", "said(\""] {
                let mut rest = src;
                while let Some(i) = rest.find(marker) {
                    rest = &rest[i + marker.len()..];
                    // `said(` may break its line before the template.
                    let r = rest.trim_start().strip_prefix('"').unwrap_or(rest);
                    if let Some(end) = r.find('"') {
                        keys.push(r[..end].to_string());
                    }
                }
            }
        }
        keys
    }

    /// `src` with the whitespace inside `t(`/`trf(` … `lang,` … `"` collapsed to the
    /// one-line form the scan looks for.
    fn join_calls(src: &str) -> String {
        let mut out = String::with_capacity(src.len());
        let mut chars = src.chars().peekable();
        while let Some(c) = chars.next() {
            out.push(c);
            let after_open = out.ends_with("t(") || out.ends_with("trf(");
            let after_lang = out.ends_with("(lang,");
            if after_open || after_lang {
                let mut ws = false;
                while chars.peek().is_some_and(|c| c.is_whitespace()) {
                    chars.next();
                    ws = true;
                }
                if after_lang && ws {
                    out.push(' ');
                }
            }
        }
        out
    }

    #[test]
    fn a_call_rustfmt_broke_over_lines_is_read_as_one() {
        assert_eq!(
            join_calls("trf(\n    lang,\n    \"x {}\",\n &[&1])"),
            "trf(lang, \"x {}\",\n &[&1])"
        );
    }

    #[test]
    fn every_string_the_components_show_has_a_chinese_translation() {
        let mut keys = keys_in_source();
        keys.extend(
            kubeplay_engine::explain::trace::TEMPLATES
                .iter()
                .chain(kubeplay_engine::explain::pod_path::TEMPLATES)
                .chain(kubeplay_engine::fork::TEMPLATES)
                .map(|t| t.to_string()),
        );
        assert!(keys.len() > 60, "the scan found only {} keys", keys.len());
        let missing: Vec<&String> = keys
            .iter()
            .filter(|k| !ZH.iter().any(|(e, _)| e == k))
            .collect();
        assert!(missing.is_empty(), "no Chinese for: {missing:?}");
    }

    #[test]
    fn a_kind_named_in_english_is_named_the_same_in_chinese() {
        let is_word = |text: &str, at: usize, len: usize| {
            let before = text[..at].chars().next_back();
            let after = text[at + len..].chars().next();
            !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-' || c == '/')
                && !after.is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
        };
        let mut wrong = Vec::new();
        for (en, zh) in ZH {
            for kind in KINDS {
                let named = en
                    .match_indices(kind)
                    .any(|(at, _)| is_word(en, at, kind.len()));
                if named && !zh.contains(kind) {
                    wrong.push(format!("{kind}: {en} → {zh}"));
                }
            }
        }
        assert!(wrong.is_empty(), "kinds translated:\n{}", wrong.join("\n"));
    }

    #[test]
    fn every_term_of_the_table_is_the_one_the_translations_use() {
        for (en, zh, _) in TERMS {
            for part in zh.split(" / ") {
                assert!(
                    ZH.iter().any(|(_, z)| z.contains(part)),
                    "the term for {en} ({part}) is used nowhere"
                );
            }
        }
    }

    #[test]
    fn translations_keep_their_placeholders_and_keys_are_unique() {
        for (i, (en, zh)) in ZH.iter().enumerate() {
            assert_eq!(en.matches("{}").count(), zh.matches("{}").count(), "{en}");
            assert!(!ZH[..i].iter().any(|(e, _)| e == en), "duplicate key {en}");
        }
    }

    #[test]
    fn languages_come_from_tags_and_fill_placeholders() {
        assert_eq!(Lang::from_tag("zh-CN"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("ZH"), Some(Lang::Zh));
        assert_eq!(Lang::from_tag("en-US"), Some(Lang::En));
        assert_eq!(Lang::from_tag("fr"), None);
        assert_eq!(trf(Lang::Zh, "ready {}/{}", &[&2, &3]), "就绪 2/3");
        assert_eq!(trf(Lang::En, "ready {}/{}", &[&2, &3]), "ready 2/3");
        assert_eq!(t(Lang::Zh, "not a key"), "not a key");
    }
}
