"""What a session waiting for a heavy-job slot is told (ui/state/jobs.py)."""

WORDS: dict[str, tuple[str, str]] = {
    "jobs.waiting": (
        "Waiting for another session's training to finish… ({seconds} s)",
        "正在等待其他会话的训练完成……（{seconds} 秒）",
    ),
}
