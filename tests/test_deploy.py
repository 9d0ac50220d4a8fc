"""contrib/deploy: the Kubernetes manifests validate offline against the Kubernetes schemas
and hang together; compose.yaml parses (and passes ``docker compose config`` where the CLI
is installed) and wires every replica, probe and profile; the image installs with CI's
scripts."""

from __future__ import annotations

import copy
import os
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml

from zerolayer.core.variables import BY_NAME

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "contrib" / "deploy"
K8S_VERSION = "1.30"


def manifests() -> list[dict[str, Any]]:
    docs: list[dict[str, Any]] = []
    for path in sorted((DEPLOY / "k8s").glob("*.yaml")):
        docs += [d for d in yaml.safe_load_all(path.read_text(encoding="utf-8")) if d]
    return docs


def kind(name: str) -> dict[str, Any]:
    [doc] = [d for d in manifests() if d["kind"] == name]
    return doc


def validator() -> Any:
    """kubernetes-validate (the test extra installs it; skipped elsewhere, never in CI)."""
    try:
        import kubernetes_validate
    except ImportError:
        if os.environ.get("CI"):
            pytest.fail("kubernetes-validate is required in CI (pip install -e '.[test]')")
        pytest.skip("kubernetes-validate is not installed (pip install -e '.[test]')")
    return kubernetes_validate


def compose() -> dict[str, Any]:
    data: dict[str, Any] = yaml.safe_load((DEPLOY / "compose.yaml").read_text(encoding="utf-8"))
    return data


@pytest.mark.parametrize("doc", manifests(), ids=lambda d: f"{d['kind']}/{d['metadata']['name']}")
def test_each_manifest_validates_against_the_kubernetes_schema(doc: dict[str, Any]) -> None:
    kubernetes_validate = validator()
    kubernetes_validate.validate(doc, K8S_VERSION, strict=True)


def test_the_validator_refuses_a_broken_deployment() -> None:
    kubernetes_validate = validator()
    broken = copy.deepcopy(kind("Deployment"))
    broken["spec"]["template"]["spec"]["containers"][0]["readinessProbe"]["httpGet"]["port"] = [1]
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)
    broken = copy.deepcopy(kind("Deployment"))
    broken["spec"]["template"]["spec"]["containers"][0]["probes"] = {}  # not a field
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(broken, K8S_VERSION, strict=True)


def test_the_deployment_probes_drains_and_is_found_by_its_peers() -> None:
    deployment = kind("Deployment")
    labels = deployment["spec"]["template"]["metadata"]["labels"]
    assert deployment["spec"]["selector"]["matchLabels"] == labels
    pod = deployment["spec"]["template"]["spec"]
    [container] = pod["containers"]
    assert container["readinessProbe"]["httpGet"]["path"] == "/health/ready"
    assert container["livenessProbe"]["httpGet"]["path"] == "/health"
    assert container["resources"]["requests"]["cpu"] and container["resources"]["limits"]
    pause = container["lifecycle"]["preStop"]["exec"]["command"]
    seconds = float(re.search(r"sleep\((\d+(?:\.\d+)?)\)", " ".join(pause))[1])  # type: ignore[index]
    assert 0 < seconds < pod["terminationGracePeriodSeconds"] - 30  # time left to drain
    assert pod["securityContext"]["runAsNonRoot"] is True
    refs = {r.get("configMapRef", r.get("secretRef"))["name"] for r in container["envFrom"]}
    assert refs == {kind("ConfigMap")["metadata"]["name"], kind("Secret")["metadata"]["name"]}
    assert kind("Service")["spec"]["selector"] == labels
    assert kind("PodDisruptionBudget")["spec"]["selector"]["matchLabels"] == labels
    target = kind("HorizontalPodAutoscaler")["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", deployment["metadata"]["name"])
    pdb, hpa = kind("PodDisruptionBudget")["spec"], kind("HorizontalPodAutoscaler")["spec"]
    assert pdb["minAvailable"] < hpa["minReplicas"]  # a node drain can always proceed


def test_configuration_uses_documented_variables_only() -> None:
    names = set(kind("ConfigMap")["data"]) | set(kind("Secret")["stringData"])
    names |= set(compose()["x-zerolayer-env"])
    assert names <= set(BY_NAME), sorted(names - set(BY_NAME))
    secrets = {n for n in names if BY_NAME[n].secret}
    assert secrets <= set(kind("Secret")["stringData"])  # no secret in the ConfigMap


def test_compose_wires_replicas_behind_a_balancer_with_every_part() -> None:
    services = compose()["services"]
    assert {"zerolayer", "lb", "postgres", "redis", "prometheus", "grafana"} <= set(services)
    zl = services["zerolayer"]
    assert "/health/ready" in " ".join(zl["healthcheck"]["test"])
    assert str(zl["deploy"]["replicas"]).startswith("${ZEROLAYER_REPLICAS")
    assert "ports" not in zl  # only the balancer is published
    assert (ROOT / zl["build"]["dockerfile"]).resolve() == DEPLOY / "Dockerfile"
    profiles = {name: s["profiles"] for name, s in services.items() if "profiles" in s}
    assert sorted(p for ps in profiles.values() for p in ps) == ["cpu", "gpu", "ollama"]
    for name in profiles:  # each model server answers as llm:8000
        assert services[name]["networks"]["default"]["aliases"] == ["llm"]
        assert "8000" in " ".join(map(str, services[name].get("command", []))) or (
            services[name]["environment"]["OLLAMA_HOST"].endswith(":8000")
        )
    for service in services.values():  # every file mounted exists
        for volume in service.get("volumes", []):
            source = volume.split(":")[0]
            if source.startswith("."):
                assert (DEPLOY / source).exists(), source
    haproxy = (DEPLOY / "haproxy" / "haproxy.cfg").read_text(encoding="utf-8")
    assert "httpchk GET /health/ready" in haproxy and "zerolayer:8000" in haproxy
    prometheus = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text("utf-8"))
    [job] = prometheus["scrape_configs"]
    assert job["dns_sd_configs"][0]["names"] == ["zerolayer"]  # each replica on its own


def test_docker_compose_config_accepts_the_file() -> None:
    docker = shutil.which("docker")
    if (
        docker is None
        or subprocess.run(
            [docker, "compose", "version"], capture_output=True, timeout=30
        ).returncode
    ):
        pytest.skip("the docker compose CLI is not installed")
    env = {**os.environ, "ZEROLAYER_ADMIN_KEY": "k", "POSTGRES_PASSWORD": "p"}
    for profile in ("cpu", "gpu", "ollama"):
        done = subprocess.run(
            [docker, "compose", "-f", str(DEPLOY / "compose.yaml"), "--profile", profile,
             "config", "--quiet"],
            capture_output=True, text=True, env=env, timeout=60,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr


def test_the_image_installs_with_the_scripts_ci_runs() -> None:
    dockerfile = (DEPLOY / "Dockerfile").read_text(encoding="utf-8")
    assert len(re.findall(r"^FROM .+ AS \w+$", dockerfile, re.M)) == 2  # build, runtime
    assert re.search(r"^USER 10001", dockerfile, re.M)
    assert "bash .ci/install-service" in dockerfile and "bash .ci/install-neural" in dockerfile
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "bash .ci/install-service test" in ci and "bash .ci/install-neural" in ci
    neural = (ROOT / ".ci" / "install-neural").read_text(encoding="utf-8")
    assert "bash .ci/install-service neural" in neural
    assert 'ENTRYPOINT ["zerolayer"]' in dockerfile  # exec form: SIGTERM reaches the server
