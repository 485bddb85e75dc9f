from cardref.ui.page_setup import render

render()
