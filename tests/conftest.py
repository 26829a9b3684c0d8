"""Shared fixtures: real datasets, loaded once per session."""

from __future__ import annotations

import os

import numpy as np
import pytest

import modelmine as mm

# Printed so a failing randomised test can be replayed with the same seed.
SEED = int(os.environ.get("MODELMINE_TEST_SEED", "0"))


def pytest_report_header(config):
    return f"modelmine test seed: {SEED} (set MODELMINE_TEST_SEED to change)"


@pytest.fixture(scope="session")
def colon():
    return mm.datasets.load_colon(return_names=True)


@pytest.fixture(scope="session")
def leukemia():
    return mm.datasets.load_leukemia(return_names=True)


@pytest.fixture
def rng():
    return np.random.default_rng(SEED)


@pytest.fixture
def wait_for_file():
    """Wait until a child process writes a file (or fail when it dies or times out): how a
    test meets a child at a known moment instead of racing it against a clock."""
    import time

    def wait(path, proc, timeout=300.0):
        deadline = time.monotonic() + timeout
        while not path.exists():
            if proc.poll() is not None:
                pytest.fail(f"the child exited ({proc.returncode}) before writing {path.name}")
            if time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"the child did not write {path.name} in {timeout:.0f} s")
            time.sleep(0.02)

    return wait
