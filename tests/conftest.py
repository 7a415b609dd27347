import pytest

from cnl.datasets.paths import data_dir


@pytest.fixture(scope="session")
def shared_data():
    path = data_dir(required=False)
    if path is None:
        pytest.skip("shared data not found: set CNL_DATA_DIR or put it at ../shared/data")
    return path
