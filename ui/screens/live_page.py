from cardref.ui.page_live import render

render()
