"""The 点 of a 够级 deal: who opened 开点 or admitted 认点 (004:9, 004:23-25; 002:50), who
may no longer open, who declared 宣点, and who claimed 看贡 (for itself or its team)."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Points:
    kaidian: set[int] = field(default_factory=set)      # 开点 (earned, or given by a 冲点 / 革命)
    rendian: set[int] = field(default_factory=set)      # 认点
    no_kaidian: set[int] = field(default_factory=set)   # may no longer open
    xuandian: set[int] = field(default_factory=set)     # 宣点
    kangong: dict[int, str] = field(default_factory=dict)   # 看贡: seat -> self | team
