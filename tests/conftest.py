import pytest

from cnl.datasets.paths import data_dir


@pytest.fixture(scope="session")
def shared_data():
    path = data_dir(required=False)
    # an empty folder (CNL_DATA_DIR=/empty: how the no-data run is checked) holds no data either
    if path is None or not any(path.iterdir()):
        pytest.skip("shared data not found: set CNL_DATA_DIR or put it at ../shared/data")
    return path


def pytest_collection_modifyitems(config, items):
    """Every test that reads ../shared/data (through the shared_data fixture, directly or via
    another fixture) is marked ``data``: ``pytest -m 'not data'`` runs what needs no data."""
    for item in items:
        if "shared_data" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.data)
