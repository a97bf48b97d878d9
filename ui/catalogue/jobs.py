"""What a session waiting in the heavy-job queue is told (ui/state/jobs.py: WaitNotice), and the
words of the jobs' kinds."""

WORDS: dict[str, tuple[str, str]] = {
    "jobs.queued": (
        "The server is busy with another session's {running}. Your {kind} is number {position} in the queue; {wait}",
        "服务器正忙于其他会话的{running}。您的{kind}在队列中排第 {position} 位；{wait}",
    ),
    "jobs.queued_next": (
        "The server is busy with another session's {running}. Your {kind} is next in the queue; {wait}",
        "服务器正忙于其他会话的{running}。您的{kind}排在队列最前；{wait}",
    ),
    "jobs.wait_seconds": ("it starts in about {seconds} s.", "预计约 {seconds} 秒后开始。"),
    "jobs.wait_minutes": ("it starts in about {minutes} min.", "预计约 {minutes} 分钟后开始。"),
    "jobs.wait_soon": ("it starts in a few seconds.", "几秒内即可开始。"),
    "jobs.wait_unknown": (
        "the wait is estimated once the job ahead reports its progress.",
        "前面的任务报告进度后即可估计等待时间。",
    ),
    "jobs.running_share": ("{kind} ({share} done)", "{kind}（已完成 {share}）"),
    "jobs.kind.train": ("training", "训练"),
    "jobs.kind.compare": ("comparison", "算法比较"),
    "jobs.kind.cv": ("cross-validation", "交叉验证"),
    "jobs.kind.prune": ("pruning run", "剪枝"),
    "jobs.kind.cf": ("EBP curves", "EBP 曲线"),
    "jobs.kind.growth": ("growth replay", "生长回放"),
    "jobs.kind.large": ("training on the large data", "大数据训练"),
}
