"""The entropy family's kernels that ID3 and C4.5 share: every binary cut of a continuous
feature scored at once (``cutpoints``), multiway scoring with C4.5's missing-value rule
(``multiway``), ID3's pre-binning of continuous columns (``discretize``) and a multiway tree
created level by level numbered in pre-order (``preorder``)."""
