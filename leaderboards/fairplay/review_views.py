"""The staff's fair-play review pages: the queue of held results and one result with all
its evidence, where a reviewer clears or disqualifies it (one service call)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods

from games.access import signed_in
from games.errors import NotFound, ServiceError
from leaderboards.fairplay import selectors
from leaderboards.fairplay.services import result_review_decide


class DecisionForm(forms.Form):
    decision = forms.ChoiceField(
        label=_("Decision"),
        choices=[("cleared", _("Clear: back on the board")), ("disqualified", _("Disqualify"))],
        widget=forms.RadioSelect,
    )
    why = forms.CharField(label=_("Why"), max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))


@staff_member_required
@require_GET
def review_list(request: HttpRequest) -> HttpResponse:
    state = request.GET.get("state", "held")
    try:
        results = list(selectors.review_queue(state=state))
    except NotFound as err:
        raise Http404(err.reason) from None
    context = {"results": results, "state": state, "states": selectors.REVIEW_STATES}
    return render(request, "leaderboards/review_list.html", context)


@staff_member_required
@require_http_methods(["GET", "POST"])
def review_detail(request: HttpRequest, result_id: int) -> HttpResponse:
    form = DecisionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            result_review_decide(
                result_id=result_id, by=signed_in(request.user), **form.cleaned_data
            )
        except ServiceError as err:
            form.add_error(None, err.reason)
        else:
            messages.success(request, _("Decision recorded."))
            return redirect("leaderboards:review_detail", result_id=result_id)
    try:
        case = selectors.review_case(result_id=result_id)
    except NotFound as err:
        raise Http404(err.reason) from None
    return render(request, "leaderboards/review_detail.html", {"case": case, "form": form})
