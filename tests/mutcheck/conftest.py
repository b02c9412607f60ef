"""Every test's runs keep their saved state in a temporary cache folder, never the user's own."""

import pytest


@pytest.fixture(autouse=True, scope="session")
def _cache_folder(tmp_path_factory: pytest.TempPathFactory):
    # In os.environ, so that the mutcheck processes the tests start inherit it too.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("cache")))
        yield
