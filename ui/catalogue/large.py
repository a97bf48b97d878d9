"""Words of the large-data source (ui/state/large_data.py, ui/sections/large_data.py,
ui/services/large_data.py)."""

WORDS: dict[str, tuple[str, str]] = {
    "large.sample_placeholder": (
        "Large data on the server are loaded: pick a sample to replace them",
        "已载入服务器上的大数据：选择样例数据集即可替换",
    ),
    "large.progress_start": (
        "Dask: one pass over {rows} rows in {files} file(s) to bin every feature, then the levels…",
        "Dask：先遍历 {files} 个文件中的 {rows} 行为每个特征分箱，然后逐层生长…",
    ),
    "large.title": ("Large data: Parquet files on the server", "大数据：服务器上的 Parquet 文件"),
    "large.help": (
        "For tables too large to upload: name Parquet files in the server's data folder. The app "
        "keeps a sample of rows for the preview and the column roles, and trains CART (histogram "
        "split search) with Dask on **every** row.",
        "用于无法上传的大表：指定服务器数据目录中的 Parquet 文件。应用只保留部分行作为样本，用于预览和"
        "设置列角色；CART（直方图切分搜索）在 Dask 上用 **全部** 行训练。",
    ),
    "large.pattern": ("Path or glob in the data folder", "数据目录中的路径或通配符"),
    "large.pattern_help": (
        "Relative to the data folder: a file (sales.parquet), a folder (sales/, all its .parquet "
        "files) or a glob (sales/*.parquet, **/*.parquet). Nothing outside the folder can be read.",
        "相对于数据目录：一个文件（sales.parquet）、一个文件夹（sales/，其中全部 .parquet 文件）或通配符"
        "（sales/*.parquet、**/*.parquet）。目录之外的文件一律不能读取。",
    ),
    "large.open": ("Open", "打开"),
    "large.failed": (
        "Could not open **{pattern}**: {message} The previous data are kept.",
        "无法打开 **{pattern}**：{message} 仍使用之前的数据。",
    ),
    "large.err.off": (
        "this server offers no large data (its operator has not set DTREE_LARGE_DATA_DIR)",
        "此服务器未提供大数据（管理员未设置 DTREE_LARGE_DATA_DIR）",
    ),
    "large.link_failed": (
        "The link opens large data **{pattern}**, which cannot be opened here: {message} The sample "
        "data are shown instead.",
        "链接要打开大数据 **{pattern}**，但此处无法打开：{message} 现显示样例数据。",
    ),
    "large.err.empty": ("name a file, a folder or a glob", "请填写文件、文件夹或通配符"),
    "large.err.outside": (
        "{pattern} points outside the server's data folder, which is the only place large data may "
        "be read from",
        "{pattern} 指向服务器数据目录之外，大数据只能从该目录读取",
    ),
    "large.err.bad_glob": ("{pattern} is not a valid glob", "{pattern} 不是有效的通配符"),
    "large.err.no_files": (
        "no Parquet file (.parquet, .pq) matches {pattern} in the data folder",
        "数据目录中没有与 {pattern} 匹配的 Parquet 文件（.parquet、.pq）",
    ),
    "large.err.too_many": (
        "{pattern} matches more than {limit} files",
        "{pattern} 匹配的文件超过 {limit} 个",
    ),
    "large.err.columns": (
        "{file} has other columns than {first}; all files must have the same columns",
        "{file} 的列与 {first} 不同；所有文件必须有相同的列",
    ),
    "large.err.unreadable": (
        "{file} is not a readable Parquet file ({detail})",
        "{file} 不是可读的 Parquet 文件（{detail}）",
    ),
    "large.err.empty_files": ("the files of {pattern} hold no rows", "{pattern} 的文件中没有数据行"),
    "large.err.cart_only": (
        "large data are trained with Dask, which grows CART trees (histogram split search) only; "
        "choose CART as the algorithm",
        "大数据在 Dask 上训练，只支持 CART（直方图切分搜索）；请选择 CART 算法",
    ),
    "large.err.cluster": ("the Dask cluster is not reachable ({detail})", "无法连接 Dask 集群（{detail}）"),
    "large.sample_note": (
        "This is a **sample**: the first rows of each file, {shown} of **{rows}** rows in {files} "
        "file(s). The roles you set here apply to all rows; training (CART on Dask) uses every row.",
        "这是 **样本**：每个文件的前若干行，共 {shown} 行，全部数据为 {files} 个文件中的 **{rows}** 行。"
        "此处设置的列角色适用于全部数据；训练（Dask 上的 CART）使用全部行。",
    ),
    "large.split_note": (
        "Large data: Dask trains on every row, so there is no validation or test split; the scores "
        "on the Train page are measured on the sample (rows the tree was trained on).",
        "大数据：Dask 用全部行训练，因此不划分验证集或测试集；训练页上的得分在样本上计算（这些行属于训练数据）。",
    ),
    "large.progress": (
        "Dask: {done} of {depth} levels grown",
        "Dask：已生长 {done} / {depth} 层",
    ),
    "large.trained": (
        "CART (histogram split search) trained with Dask on all {rows} rows in {files} file(s) in "
        "{seconds} s. Scores below are on the in-memory sample of {shown} rows, which are training rows.",
        "CART（直方图切分搜索）在 Dask 上用 {files} 个文件中的全部 {rows} 行训练，用时 {seconds} 秒。"
        "下面的得分在内存中的 {shown} 行样本上计算，这些行属于训练数据。",
    ),
    "large.page.sample": (
        "Large data: this page works on the **sample** of {shown} rows (of {rows} rows in {files} file(s)).",
        "大数据：本页只使用 {shown} 行 **样本**（全部数据为 {files} 个文件中的 {rows} 行）。",
    ),
    "large.page.growth": (
        "Large data: the steps are those of the tree Dask grew on all {rows} rows; the rows shown "
        "at a node come from the **sample** of {shown} rows.",
        "大数据：各步骤是 Dask 用全部 {rows} 行生长的树的步骤；节点上显示的数据行来自 {shown} 行 **样本**。",
    ),
    "large.page.splits": (
        "Large data: the candidate splits at a node are scored on the **sample** of {shown} rows "
        "(of {rows} rows in {files} file(s)), so their numbers differ from those Dask ranked on all "
        "rows, and the exact split search may prefer another threshold than the tree's bin edge.",
        "大数据：节点上的候选切分在 {shown} 行 **样本** 上评分（全部数据为 {files} 个文件中的 {rows} 行），"
        "因此数值与 Dask 在全部行上的排序不同，精确切分搜索也可能选出与树中箱边界不同的阈值。",
    ),
    "large.page.prune": (
        "Large data: pruning works on the **sample** of {shown} rows (of {rows} rows in {files} "
        "file(s)): error estimates, the α path and cross-validation use the sample's rows, which "
        "are training rows; there is no validation set.",
        "大数据：剪枝只使用 {shown} 行 **样本**（全部数据为 {files} 个文件中的 {rows} 行）：误差估计、"
        "α 路径和交叉验证都基于样本行（它们属于训练数据）；没有验证集。",
    ),
    "large.page.unavailable": (
        "Not available for large data: this page trains every algorithm in memory, and large data "
        "({rows} rows in {files} file(s)) are trained with Dask as CART only. The Train page shows "
        "the model; the Growth, Splits and Pruning pages work on the sample of {shown} rows.",
        "大数据不支持本页：本页在内存中训练每种算法，而大数据（{files} 个文件中的 {rows} 行）只在 Dask "
        "上训练 CART。模型见训练页；生长过程、切分和剪枝页使用 {shown} 行样本。",
    ),
}
