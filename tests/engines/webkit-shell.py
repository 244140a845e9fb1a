#!/usr/bin/python3
"""A bare WebKitGTK window for WebKitWebDriver: no toolbar, so the viewport is exactly
the window (MiniBrowser's toolbar keeps its window at least 447 px wide).

WebKitWebDriver starts it through the `webkitgtk:browserOptions` capability
(tests/engines/webkit.ts) with `--width=W --height=H`. It allows automation and
answers the session's `create-web-view` with a view controlled by automation.
recorder.js is injected as a user script at document start into every page (the
page's CSP does not apply to it); the shell answers its question for the HTTP status
of the document, which classic WebDriver cannot see.
"""
import sys
from pathlib import Path

import gi

gi.require_version("Gdk", "3.0")
gi.require_version("Gtk", "3.0")
gi.require_version("WebKit2", "4.1")
gi.require_version("JavaScriptCore", "4.1")
from gi.repository import Gdk, Gtk, JavaScriptCore, WebKit2  # noqa: E402

RECORDER = (Path(__file__).parent / "recorder.js").read_text()


def option(name, default):
    for arg in sys.argv[1:]:
        if arg.startswith(f"--{name}="):
            return int(arg.split("=", 1)[1])
    return default


WIDTH = option("width", 1280)
HEIGHT = option("height", 900)

# Ephemeral: nothing (storage, cache) is shared with another run or another window.
context = WebKit2.WebContext(website_data_manager=WebKit2.WebsiteDataManager.new_ephemeral())
context.set_automation_allowed(True)
content = WebKit2.UserContentManager()
content.add_script(
    WebKit2.UserScript(
        RECORDER,
        WebKit2.UserContentInjectedFrames.TOP_FRAME,
        WebKit2.UserScriptInjectionTime.START,
        None,
        None,
    )
)


views = []


def status_asked(_manager, value, reply):
    status = 0
    for view in views:
        resource = view.get_main_resource()
        response = resource.get_response() if resource else None
        if response is not None:
            status = response.get_status_code()
    reply.return_value(JavaScriptCore.Value.new_number(value.get_context(), status))
    return True


content.connect("script-message-with-reply-received::engineStatus", status_asked)
content.register_script_message_handler_with_reply("engineStatus", None)


def create_web_view(_session):
    view = WebKit2.WebView(
        web_context=context, user_content_manager=content, is_controlled_by_automation=True
    )
    views.append(view)
    window = Gtk.Window()
    window.set_decorated(False)
    window.set_default_size(WIDTH, HEIGHT)
    window.add(view)
    window.connect("destroy", Gtk.main_quit)
    view.connect("close", lambda _view: window.destroy())
    # Xvfb has no window manager, so X gives keyboard focus to the window under the
    # pointer; a window narrower than the screen may not be under it, and a page in an
    # unfocused window never matches :focus. Take the focus explicitly.
    window.move(0, 0)
    window.connect("map-event", lambda w, _e: w.get_window().focus(Gdk.CURRENT_TIME))
    window.show_all()
    return view


def automation_started(_context, session):
    session.connect("create-web-view", create_web_view)


context.connect("automation-started", automation_started)
Gtk.main()
