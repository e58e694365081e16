"""The rating's model changed (Plackett-Luce to a Gaussian filter on the day's place, and
the board's key from mu - 3 sigma to mu - sigma, docs/ratings.md): the stored ratings are
the old model's, so every rated deal is marked stale and the next rating pass replays from
the first, rating every closed deal again in order (as ``manage.py rebuild_ratings``
does; docs/operations.md)."""

from django.db import migrations, models


def mark_every_match_stale(apps, schema_editor):
    apps.get_model("leaderboards", "RatedMatch").objects.update(stale=True)


class Migration(migrations.Migration):
    dependencies = [
        ("leaderboards", "0011_duel_rating"),
    ]

    operations = [
        migrations.AlterField(
            model_name="playerrating",
            name="ordinal",
            field=models.FloatField(db_index=True, default=16.666666666666664),
        ),
        migrations.RunPython(mark_every_match_stale, migrations.RunPython.noop),
    ]
