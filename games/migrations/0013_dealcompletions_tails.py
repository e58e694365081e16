from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_deal_certified_completions"),
    ]

    operations = [
        migrations.AddField(
            model_name="dealcompletions",
            name="tails",
            field=models.JSONField(blank=True, default=dict),
        ),
    ]
