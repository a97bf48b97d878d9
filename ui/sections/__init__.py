"""What belongs to one page (or two) below the pages: its sections (the what-if editor, the
downloads, the big-tree navigation and the pan/zoom tree frame they share, the Pruning page's tree
pair, the large-data box) and its own Streamlit state and caches (the Splits, Pruning, Compare and
Growth pages' ``splits``, ``pruning``, ``compare``, ``growth``). The state every page shares is
``ui.state``'s, which imports nothing from here.
"""
