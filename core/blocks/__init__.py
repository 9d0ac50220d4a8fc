"""Messages written in blocks, from the syntax a request declares to the merged answer.

A block is a tagged span of a message: ``<convert lang="…" to="…">…</convert>`` carries a
deterministic instruction, ``<ask>…</ask>`` an open request for the model. Three steps, one
module each, in the order a request meets them:

- ``syntax``: block syntax versions (``v1`` ``[CODE_CONVERSION]…``, ``v2`` ``<convert>``) and
  the compatibility layer that rewrites an older syntax as the current one;
- ``split``: the tag reader shared with segmentation, and the split of a message written in
  blocks into deterministic blocks and open parts;
- ``parts``: the answer to such a message, the engine's parts and the model's merged in
  message order (``MergedAnswer``).
"""
