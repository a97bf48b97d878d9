"""The Pruning page's words, with its before/after pair: the removed-subtrees table, the common scale."""

WORDS: dict[str, tuple[str, str]] = {
    "prune.title": ("Pruning", "剪枝"),
    "prune.intro": (
        "Post-prune the tree grown on **Train & tree** and compare it before and after. Pruning never changes the trained model.",
        "对 **训练与决策树** 页生成的树做后剪枝，并比较剪枝前后。剪枝不会改动已训练的模型。",
    ),
    "prune.no_model": (
        "Train a tree on the **Train & tree** page first.",
        "请先在 **训练与决策树** 页训练一棵树。",
    ),
    "prune.method": ("Method", "剪枝方法"),
    "prune.method_help": (
        "REP and CCP work on every tree; PEP and C4.5's error-based pruning count misclassifications, so they need a classification tree.",
        "REP 和 CCP 适用于所有树；PEP 和 C4.5 的基于错误率的剪枝统计误分类数，只适用于分类树。",
    ),
    "prune.native": (" · native to {algorithm}", " · {algorithm} 自带"),
    "prune.method.rep": ("Reduced-error pruning (REP)", "错误率降低剪枝（REP）"),
    "prune.method.pep": ("Pessimistic error pruning (PEP)", "悲观错误剪枝（PEP）"),
    "prune.method.ebp": ("C4.5 error-based pruning (EBP)", "C4.5 基于错误率的剪枝（EBP）"),
    "prune.method.ccp": ("Cost-complexity pruning (CCP)", "代价复杂度剪枝（CCP）"),
    "prune.about.rep": (
        "Bottom-up on the validation rows: a subtree becomes a leaf when that does not raise the validation error.",
        "在验证集上自底向上：若把子树替换为叶节点不会增加验证误差，就替换。",
    ),
    "prune.about.pep": (
        "Top-down on the training counts: training errors plus ½ per leaf; a subtree becomes a leaf when the leaf's corrected error is within one standard error.",
        "基于训练计数自顶向下：训练误差加上每个叶节点 ½；若叶节点的修正误差不超过子树修正误差加一个标准误差，就替换为叶节点。",
    ),
    "prune.about.ebp": (
        "C4.5's own method: estimate each leaf's errors by the upper confidence limit at CF; replace a subtree by a leaf or by its largest branch when that does not raise the estimate. Smaller CF prunes more.",
        "C4.5 自带的方法：用置信因子 CF 下的置信上限估计每个叶节点的错误数；若替换为叶节点或最大分支不会增加估计值就替换。CF 越小剪得越多。",
    ),
    "prune.about.ccp": (
        "CART's weakest-link pruning: minimise R(T) + α·leaves. Each α on the slider is a point where the tree loses its weakest subtree.",
        "CART 的最弱连接剪枝：最小化 R(T) + α·叶节点数。滑块上的每个 α 都是树剪掉最弱子树的位置。",
    ),
    "prune.regression_note": (
        "This is a regression tree: PEP and C4.5's error-based pruning count misclassifications and apply to classification trees only. Choose REP or cost-complexity pruning.",
        "这是一棵回归树：PEP 和 C4.5 的基于错误率的剪枝统计的是误分类数，只适用于分类树。请选择 REP 或代价复杂度剪枝。",
    ),
    "prune.alpha": ("α (values where the tree changes)", "α（树发生变化的取值）"),
    "prune.alpha_help": (
        "Only the effective α of this tree's pruning path are offered: any α in between gives the same tree as the value below it. 0 = no pruning.",
        "只提供该树剪枝路径上的有效 α：两值之间的任何 α 与较小的那个得到同一棵树。0 = 不剪枝。",
    ),
    "prune.cv": ("Cross-validation folds (0 = off)", "交叉验证折数（0 = 关闭）"),
    "prune.cv_help": (
        "Grow the tree again on k−1 folds, prune it along the path and score it on the held-out fold (Breiman et al.).",
        "在 k−1 折上重新生成树，沿剪枝路径剪枝，并在留出的一折上评估（Breiman 等）。",
    ),
    "prune.one_se": ("1-SE rule", "1-SE 规则"),
    "prune.one_se_help": (
        "Pick the smallest tree whose CV error is within one standard error of the minimum.",
        "选择交叉验证误差不超过最小值加一个标准误差的最小的树。",
    ),
    "prune.use_cv": ("Use the CV choice", "采用交叉验证的选择"),
    "prune.use_valid": ("Use the validation choice", "采用验证集的选择"),
    "prune.cv_result": (
        "{k}-fold cross-validation ({rule}) picks α = {alpha}: {leaves} leaves, CV error {error} ± {se}.",
        "{k} 折交叉验证（{rule}）选择 α = {alpha}：{leaves} 个叶节点，交叉验证误差 {error} ± {se}。",
    ),
    "prune.valid_result": (
        "The validation rows ({rule}) pick α = {alpha}: {leaves} leaves, validation error {error}.",
        "验证集（{rule}）选择 α = {alpha}：{leaves} 个叶节点，验证误差 {error}。",
    ),
    "prune.rule.min": ("minimum", "最小误差"),
    "prune.rule.1-SE": ("1-SE rule", "1-SE 规则"),
    "prune.cv_off": (
        "Set the folds to 2 or more to cross-validate α.",
        "将折数设为 2 或以上即可交叉验证 α。",
    ),
    "prune.cv_too_many": (
        "{k} folds is more than the {rows} training rows: lower the folds.",
        "{k} 折多于训练集的 {rows} 行：请减少折数。",
    ),
    "prune.running_cv": ("Cross-validating α ({k} folds)…", "正在交叉验证 α（{k} 折）……"),
    "prune.running": ("Pruning…", "正在剪枝……"),
    "prune.cf": ("Confidence factor (CF)", "置信因子 CF"),
    "prune.cf_help": (
        "Smaller values prune more (C4.5's -c, default 0.25).",
        "越小剪得越多（C4.5 的 -c，默认 0.25）。",
    ),
    "prune.needs_valid": (
        "Reduced-error pruning needs validation rows: set a validation share on the **Data** page, then train again.",
        "错误率降低剪枝需要验证集：请在 **数据** 页设置验证集比例，然后重新训练。",
    ),
    "prune.failed": ("Pruning failed: {message}", "剪枝失败：{message}"),
    "prune.c45_grown": (
        "C4.5 prunes while it trains: *before* is its tree as grown; the **Train & tree** page shows it after its own pruning.",
        "C4.5 在训练时就会剪枝：“剪枝前”是生成时的原始树；**训练与决策树** 页显示的是它自身剪枝后的树。",
    ),
    "prune.before_title": (
        "Before: as grown · {nodes} nodes, {leaves} leaves",
        "剪枝前（原始树）· {nodes} 个节点，{leaves} 个叶节点",
    ),
    "prune.after_title": (
        "After: {method} · {nodes} nodes, {leaves} leaves",
        "剪枝后：{method} · {nodes} 个节点，{leaves} 个叶节点",
    ),
    "prune.tree_legend": (
        "Dashed grey boxes: nodes pruning removes. Bold boxes: tests that become leaves (before) and the new leaves (after).",
        "灰色虚线框：剪枝删除的节点。粗框：变为叶节点的测试节点（剪枝前）和新叶节点（剪枝后）。",
    ),
    "prune.summary": (
        "{collapsed} test(s) became leaves; {removed} node(s) removed.",
        "{collapsed} 个测试节点变为叶节点；删除了 {removed} 个节点。",
    ),
    "prune.raised": (
        "Subtree raising replaced {count} test(s) by their largest branch.",
        "子树上提：{count} 个测试节点被其最大分支取代。",
    ),
    "prune.nothing": (
        "Nothing is pruned at these settings: the tree stays as grown.",
        "在当前设置下没有剪掉任何节点：树保持原样。",
    ),
    "prune.levels": ("Show levels", "显示层数"),
    "prune.arrange": ("Arrange", "排列"),
    "prune.arrange.auto": ("auto", "自动"),
    "prune.arrange.side": ("side by side", "左右并排"),
    "prune.arrange.stacked": ("one above the other", "上下排列"),
    "prune.levels_folded": (
        "The trees are shown to depth {depth}: deeper subtrees fold into a box. Raise *Show levels* to see more.",
        "两棵树显示到第 {depth} 层：更深的子树折叠为一个方框。调高“显示层数”可查看更多。",
    ),
    "prune.metrics_title": ("Before and after", "剪枝前后对比"),
    "prune.measure": ("Measure", "指标"),
    "prune.before": ("Before", "剪枝前"),
    "prune.after": ("After", "剪枝后"),
    "prune.change": ("Change", "变化"),
    "prune.error_rate": ("Error rate", "错误率"),
    "prune.mse": ("MSE", "均方误差"),
    "prune.charts_title": ("Size against error", "规模与误差"),
    "prune.cf_open": (
        "The curve against CF: {n} prunings of the tree on {rows} training rows, drawn when opened",
        "随 CF 变化的曲线：在 {rows} 行训练数据上剪枝 {n} 次，展开时绘制",
    ),
    "prune.chart.error_alpha": ("Error against α", "误差随 α 的变化"),
    "prune.chart.leaves_alpha": ("Leaves against α", "叶节点数随 α 的变化"),
    "prune.chart.cf": (
        "Tree size and C4.5's estimated errors against CF",
        "树的规模和 C4.5 估计错误数随 CF 的变化",
    ),
    "prune.label.alpha": ("α", "α"),
    "prune.label.error": ("error", "误差"),
    "prune.label.cv": ("{k}-fold CV", "{k} 折交叉验证"),
    "prune.label.band": ("±1 SE", "±1 标准误差"),
    "prune.label.rule": ("CV choice", "交叉验证的选择"),
    "prune.label.chosen": ("chosen", "当前选择"),
    "prune.label.leaves": ("leaves", "叶节点数"),
    "prune.label.nodes": ("nodes", "节点数"),
    "prune.label.size": ("size", "规模"),
    "prune.label.estimate": ("estimated errors", "估计错误数"),
    "prune.label.cf": ("confidence factor CF", "置信因子 CF"),
    "prune.removed.title": ("Removed subtrees", "被剪去的子树"),
    "prune.removed.col.node": ("Node", "节点"),
    "prune.removed.col.test": ("Test", "测试属性"),
    "prune.removed.col.path": ("Path from the root", "从根节点出发的路径"),
    "prune.removed.col.samples": ("Samples", "样本数"),
    "prune.removed.col.nodes": ("Nodes removed", "删除的节点数"),
    "prune.removed.col.leaves": ("Leaves", "叶节点数"),
    "prune.removed.col.replaced": ("Replaced by", "替换为"),
    "prune.removed.col.before": ("Before", "剪枝前"),
    "prune.removed.col.after": ("After", "剪枝后"),
    "prune.removed.leaf": ("a leaf", "叶节点"),
    "prune.removed.branch": ("its branch #{node} (raised)", "其分支 #{node}（子树上提）"),
    "prune.removed.basis.validation": (
        "Before / After: validation errors (misclassified validation rows) of the subtree and of the "
        "node as a leaf when REP decided the node, as REP compares them: REP works bottom-up, so the "
        "subtree is the one already pruned below the node, not the grown one.",
        "剪枝前 / 剪枝后：REP 决定该节点时，其子树与把该节点作为叶节点时在验证集上的错误数（分错的验证样本），"
        "即 REP 比较的数：REP 自底向上进行，这里的子树是其下方已剪枝后的子树，而非原始子树。",
    ),
    "prune.removed.basis.validation_mse": (
        "Before / After: the squared error on the validation rows of the subtree and of the node as "
        "a leaf when REP decided the node, as REP compares them: REP works bottom-up, so the "
        "subtree is the one already pruned below the node, not the grown one.",
        "剪枝前 / 剪枝后：REP 决定该节点时，其子树与把该节点作为叶节点时在验证集上的平方误差之和，"
        "即 REP 比较的数：REP 自底向上进行，这里的子树是其下方已剪枝后的子树，而非原始子树。",
    ),
    "prune.removed.basis.pessimistic": (
        "Before / After: pessimistic errors, Σ e(leaves) + L/2 of the grown subtree and e(t) + 1/2 "
        "of the node as a leaf, as PEP compares them.",
        "剪枝前 / 剪枝后：悲观错误数，原始子树为 Σ e(叶节点) + L/2，该节点作为叶节点为 e(t) + 1/2，即 PEP 比较的数。",
    ),
    "prune.removed.basis.estimated": (
        "Before / After: C4.5's estimated errors (upper confidence limit at CF) of the subtree and "
        "of what replaced it, as EBP compares them.",
        "剪枝前 / 剪枝后：C4.5 的估计错误数（置信因子 CF 下的置信上限），分别对应子树与替换它的节点，即 EBP 比较的数。",
    ),
    "prune.removed.basis.cost": (
        "Before / After: the cost R (weighted impurity, share of all training samples) of the "
        "branch's leaves and of the node as a leaf at the weakest-link step that cut the node, as "
        "cost-complexity pruning compares them: the branch as it stood then, already pruned by "
        "earlier steps below the node, not the grown one.",
        "剪枝前 / 剪枝后：在剪去该节点的那一步“最弱连接”时，其分支各叶节点与把该节点作为叶节点时的代价 R"
        "（按训练样本占比加权的不纯度），即代价复杂度剪枝比较的数：分支是当时的分支，其下方已被更早的步骤剪过，而非原始子树。",
    ),
    "prune.refuse": (
        "{nodes} boxes at these levels, more than can be drawn at once ({limit}): choose fewer levels.",
        "这些层共有 {nodes} 个框，超过一次能绘制的上限（{limit}）：请减少显示层数。",
    ),
    "prune.scale_note": (
        "Both trees at one scale, fitted to their frames (text 10–12 px): a larger pair scrolls, "
        "drag or scroll inside a frame to see more.",
        "两棵树使用同一比例并适配框宽（文字 10–12 像素）：更大的树可在框内拖动或滚动查看其余部分。",
    ),
    # REP's tie rule (SPEC §8 prunes on a tie; Zhou's figure 4.7 keeps the subtree) and its decisions
    "prune.rep_ties": ("On a tie (validation accuracy unchanged)", "精度不变时（平局）"),
    "prune.rep_ties.prune": ("prune (Occam's razor)", "剪枝（奥卡姆剃刀）"),
    "prune.rep_ties.keep": ("keep (the textbook's figure 4.7)", "保留（教材图 4.7）"),
    "prune.rep_ties_help": (
        "When a subtree and the node as a leaf make the same validation error: **prune** takes the "
        "smaller tree (Occam's razor, what REP implementations do); **keep** leaves the subtree, as "
        "Zhou's 机器学习 does in §4.3.2 (its footnote: real algorithms usually prune there).",
        "当子树与把该节点作为叶节点在验证集上的误差相同时：**剪枝** 取更小的树（奥卡姆剃刀，REP 的常见实现）；"
        "**保留** 则保留子树，与周志华《机器学习》4.3.2 节的做法一致（书中脚注：实际算法通常会剪枝）。",
    ),
    "prune.rep_ties.textbook": (
        "Zhou's figure 4.7 keeps the 根蒂 test and the 色泽 test below it (the book's ③ and ⑤) because "
        "the validation accuracy stays the same without them: choose **keep (the textbook's figure 4.7)** "
        "to see it; **prune** gives the 脐部 stump, at the same 71.4 %.",
        "周志华图 4.7 保留了根蒂及其下的色泽两个测试（书中的 ③ 和 ⑤），因为剪掉它们验证集精度不变："
        "选择 **保留（教材图 4.7）** 即可看到该图；**剪枝** 得到只含脐部的树桩，验证集精度同为 71.4%。",
    ),
    "prune.decisions.title": ("REP's decisions, in order", "REP 的逐个判断（按顺序）"),
    "prune.decisions.note": (
        "Deepest tests first, as in Zhou's §4.3.2. Accuracy: on the whole validation set, with the "
        "decisions above it made. Tie rule: {rule}.",
        "由深到浅逐个考察测试节点，与周志华 4.3.2 节的顺序相同。精度指整个验证集上的精度（上面各行的判断已生效）。"
        "平局规则：{rule}。",
    ),
    "prune.decisions.col.with_subtree": ("Accuracy with the subtree", "保留子树时的精度"),
    "prune.decisions.col.as_leaf": ("Accuracy as a leaf", "剪为叶节点时的精度"),
    "prune.decisions.col.with_subtree_mse": ("Validation MSE with the subtree", "保留子树时的验证集均方误差"),
    "prune.decisions.col.as_leaf_mse": ("Validation MSE as a leaf", "剪为叶节点时的验证集均方误差"),
    "prune.decisions.col.decision": ("Decision", "判断"),
    "prune.decision.lower.pruned": ("pruned: accuracy rises", "剪枝：精度提高"),
    "prune.decision.lower.pruned_mse": ("pruned: validation error falls", "剪枝：误差降低"),
    "prune.decision.higher.kept": ("kept: accuracy would fall", "保留：剪枝会降低精度"),
    "prune.decision.higher.kept_mse": ("kept: validation error would rise", "保留：剪枝会增大误差"),
    "prune.decision.tie.pruned": (
        "pruned: accuracy unchanged (Occam's razor)",
        "剪枝：精度不变（奥卡姆剃刀）",
    ),
    "prune.decision.tie.pruned_mse": (
        "pruned: validation error unchanged (Occam's razor)",
        "剪枝：误差不变（奥卡姆剃刀）",
    ),
    "prune.decision.tie.kept": (
        "kept: accuracy unchanged (the book's rule)",
        "保留：精度不变（教材的做法）",
    ),
    "prune.decision.tie.kept_mse": (
        "kept: validation error unchanged (the book's rule)",
        "保留：误差不变（教材的做法）",
    ),
    "prune.decision.unreached.pruned": (
        "pruned: no validation row reaches it (Occam's razor)",
        "剪枝：没有验证样本到达（奥卡姆剃刀）",
    ),
    "prune.decision.unreached.pruned_mse": (
        "pruned: no validation row reaches it (Occam's razor)",
        "剪枝：没有验证样本到达（奥卡姆剃刀）",
    ),
    "prune.decision.unreached.kept": (
        "kept: no validation row reaches it (the book's rule)",
        "保留：没有验证样本到达（教材的做法）",
    ),
    "prune.decision.unreached.kept_mse": (
        "kept: no validation row reaches it (the book's rule)",
        "保留：没有验证样本到达（教材的做法）",
    ),
}
