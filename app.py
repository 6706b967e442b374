"""Kernel Lab: the router. Page config, the shared sidebar, and navigation over the lesson registry.

Streamlit runs this script as __main__, and multiprocessing's spawn runs __main__'s file again, as __mp_main__, in
every process it starts (lab/background.py's): the guard keeps that process from drawing the app with no session.
"""

import streamlit as st

from lessons import registry
from lab import page as lesson_page, present, share, sidebar
from lab.server import tune_process

if __name__ == "__main__":
    st.set_page_config(page_title="Kernel Lab", page_icon=":material/hub:", layout="wide")
    # once per process: the server-side performance settings (lab/server.py, docs/PERFORMANCE.md)
    tune_process(registry.compute_modules())

    page = st.navigation([
        st.Page("lessons/home.py", title="Kernel Lab", icon=":material/hub:", default=True),
        *(st.Page(lesson.script, title=registry.nav_title(lesson), url_path=lesson.slug)
          for lesson in registry.LESSONS),
    ])
    st.session_state[lesson_page.VIEW_PATH] = page.url_path
    share.read_hidden()
    with st.sidebar:
        present.controls(page.url_path)
    sidebar.sidebar(narrow=present.narrow())
    with st.sidebar:
        present.view_element()
    page.run()
