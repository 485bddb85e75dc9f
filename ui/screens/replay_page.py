from cardref.ui.page_replay import render

render()
