"""Enterprise rules: deterministic transformations that tenants upload over REST.

A rule document (YAML or JSON, see ``schema.py``) names trigger phrases, named regular
expressions and sandboxed templates, a pipeline in the engine's pipeline language, and worked
examples. Documents are compiled on write (``compiler.py``), stored as immutable versions
(``store.py``), reviewed and activated through the workflow (``workflow.py``), served over
HTTP (``router.py``) and applied to a tenant's own requests (``tenant_engine.py``). No
uploaded code ever runs: rule pipelines run registered ops, ``regex.*`` ops with time limits
and ``template.render`` in Jinja2's sandbox, inside worker processes (``isolation.py``).
"""
